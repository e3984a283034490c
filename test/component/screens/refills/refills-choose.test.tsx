import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { RefillsView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import RefillsScreen from '@renderer/screens/refills/RefillsScreen';
import { WithinDaysChooser } from '@renderer/screens/refills/WithinDaysChooser';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';

const DUE = '00000000-0000-4000-8000-000000000001';
const NEVER = '00000000-0000-4000-8000-000000000002';
const summary = (localId: string, customerName: string, sourceId: string) => ({
  localId,
  serverId: null,
  customerName,
  sourceId,
  email: null,
  syncState: 'synced' as const,
  deleted: false,
  localUpdatedAt: Date.parse('2026-10-01T09:00:00.000Z'),
  change: null,
});

const VIEW = RefillsView.parse({
  due: [
    {
      protocol: summary(DUE, 'Ada Lovelace', 'PAT-1'),
      lastOrderId: 'ord_1',
      lastOrderedAt: '2026-11-01T09:00:00.000Z',
      daysSupply: 30,
      runsOutAt: '2026-12-01T09:00:00.000Z',
      daysLeft: 2,
      daysEarly: 0,
    },
  ],
  neverOrdered: [summary(NEVER, 'Grace Hopper', 'PAT-2')],
});

function renderRefills() {
  window.history.replaceState(null, '', '#/refills');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/refills">
        <RefillsScreen />
      </Route>
    </Router>,
  );
}

describe('RefillsScreen: choosing protocols for a batch', () => {
  it('hands the chosen protocols, each due one with the order it refills, to the review', async () => {
    installOrderDesk({ 'refills.due': () => VIEW });
    const user = userEvent.setup();
    renderRefills();
    const actions = await screen.findByRole('group', { name: 'Submit the chosen protocols' });
    const review = within(actions).getByRole('button', { name: 'Review the batch…' });
    expect((review as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace (PAT-1)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Grace Hopper (PAT-2)' }));
    expect(actions.textContent).toContain('2 protocols chosen.');
    await user.click(review);
    expect(useBatchDraftStore.getState()).toMatchObject({
      protocolLocalIds: [DUE, NEVER],
      from: '/refills',
      refillOf: { [DUE]: 'ord_1' },
    });
    expect(window.location.hash).toBe('#/batches/review');
  });

  it('Clear the choice unchooses all; a failed read says so and retries', async () => {
    let fail = false;
    const desk = installOrderDesk({
      'refills.due': () => (fail ? refuse('internal', 'The store could not be read.') : VIEW),
    });
    const user = userEvent.setup();
    renderRefills();
    await user.click(await screen.findByRole('checkbox', { name: 'Select all due protocols' }));
    await user.click(screen.getByRole('button', { name: 'Clear the choice' }));
    expect(screen.getByText('Choose the protocols to order again.')).toBeTruthy();
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Refills due could not be worked out.',
    );
    expect(desk.argsOf('refills.due')).toHaveLength(2);
  });
});

describe('WithinDaysChooser', () => {
  it('a preset is chosen at once; a typed number once typing pauses', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<WithinDaysChooser value={30} onChange={onChange} />);
    expect((screen.getByRole('radio', { name: '30 days' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: '14 days' }));
    expect(onChange).toHaveBeenLastCalledWith(14);
    const field = screen.getByLabelText('Days ahead');
    await user.clear(field);
    await user.type(field, '45');
    await pass(400);
    expect(onChange).toHaveBeenLastCalledWith(45);
  });

  it('says what to type for a number it cannot use, and asks for nothing', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<WithinDaysChooser value={30} onChange={onChange} />);
    const field = screen.getByLabelText('Days ahead');
    await user.clear(field);
    await user.type(field, '400{Enter}');
    expect(await screen.findByText('Enter a whole number of days from 0 to 365.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(onChange).not.toHaveBeenCalled();
  });
});
