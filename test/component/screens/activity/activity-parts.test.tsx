import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityEntryView } from '@shared/activity-views';
import { ActivityFilters } from '@renderer/screens/activity/ActivityFilters';
import { ActivityList } from '@renderer/screens/activity/ActivityList';
import { ActivityRow } from '@renderer/screens/activity/ActivityRow';
import { ChainCheck } from '@renderer/screens/activity/ChainCheck';
import { useActivityList } from '@renderer/screens/activity/use-activity';
import { useActivityStore } from '@renderer/stores/activity-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const BATCH = '0b6f2d4e-1c3a-4f5b-8d7e-9a0b1c2d3e4f';

const entry = (over: Partial<ActivityEntryView>): ActivityEntryView =>
  ActivityEntryView.parse({
    seq: 7,
    atLocal: '2026-11-26T17:05:00.000Z',
    atServer: '2026-11-26T17:05:01.000Z',
    deskId: 'desk-1',
    deskName: 'front-desk',
    osUser: 'reception',
    staff: 'Dana',
    action: 'batch-submitted',
    subjects: {},
    more: {},
    detail: {},
    ...over,
  });

beforeEach(() => useActivityStore.getState().reset());

describe('ActivityRow', () => {
  it('names the action and who, links the first ids and counts the rest', () => {
    render(
      <ActivityRow
        entry={entry({
          subjects: { batches: [BATCH], orders: ['ord_1', 'ord_2', 'ord_3', 'ord_4'] },
          more: { orders: 2 },
        })}
      />,
    );
    const row = screen.getByRole('article', { name: /^Batch submitted #7/ });
    expect(row.textContent).toContain('Dana (reception) at front-desk');
    expect(
      within(row)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['ord_1', 'ord_2', 'ord_3', `${BATCH.slice(0, 8)}…`]);
    expect(
      within(row)
        .getByRole('link', { name: `Batch ${BATCH}` })
        .getAttribute('href'),
    ).toBe(`/batches/${BATCH}`);
    expect(row.textContent).toContain('and 3 more');
  });

  it('says "No ids" for an entry that touched none, and an unknown server time', () => {
    render(<ActivityRow entry={entry({ atServer: null, staff: null })} />);
    const row = screen.getByRole('article');
    expect(row.textContent).toContain('reception at front-desk');
    expect(row.textContent).toContain('No ids');
    expect(row.textContent).toContain('Server time unknown');
  });
});

describe('ChainCheck', () => {
  it('says the record is intact from where retention left it, and checks again on asking', async () => {
    const desk = installOrderDesk({
      'activity.check': () => ({ intact: true, entries: 40, first: 12 }),
    });
    render(<ChainCheck />);
    expect((await screen.findByText(/Record intact/)).textContent).toContain(
      '40 entries (from #12; older ones were removed after the retention period)',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(desk.argsOf('activity.check')).toHaveLength(2));
  });

  it('a first check that fails says so and offers to try again', async () => {
    const desk = installOrderDesk({
      'activity.check': () => refuse('not-connected', 'Not connected.'),
    });
    render(<ChainCheck />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The record could not be checked.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(desk.argsOf('activity.check')).toHaveLength(2));
  });
});

describe('ActivityFilters', () => {
  it('offers the people the record names and keeps each choice in the store', async () => {
    installOrderDesk({
      'activity.people': () => ({ staff: ['Dana'], osUsers: ['reception', 'Dana'] }),
    });
    const user = userEvent.setup();
    render(<ActivityFilters />);
    const person = screen.getByLabelText('Person');
    await within(person).findByRole('option', { name: 'reception' });
    // A staff name that is also an OS account is offered once.
    expect(
      within(person)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Everyone', 'Dana', 'reception']);
    await user.selectOptions(person, 'reception');
    await user.selectOptions(screen.getByLabelText('Action'), 'Batch submitted');
    await user.type(screen.getByLabelText('Patient ID'), 'PAT-9');
    expect(useActivityStore.getState()).toMatchObject({
      person: 'reception',
      action: 'batch-submitted',
      patientText: 'PAT-9',
    });
    await waitFor(() => expect(useActivityStore.getState().patient).toBe('PAT-9'));
  });

  it('marks a range that ends before it starts', async () => {
    installOrderDesk({ 'activity.people': () => ({ staff: [], osUsers: [] }) });
    render(<ActivityFilters />);
    await userEvent.type(screen.getByLabelText('From'), '2026-11-20');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-10');
    expect(await screen.findByText('The end date is before the start date.')).toBeTruthy();
    expect(screen.getByLabelText('To').getAttribute('aria-invalid')).toBe('true');
  });
});

function List({ filtered, onClear }: { filtered: boolean; onClear(): void }) {
  return <ActivityList list={useActivityList({})} filtered={filtered} onClear={onClear} />;
}

describe('ActivityList', () => {
  it('shows the entries main lists, newest first', async () => {
    const desk = installOrderDesk({
      'activity.list': () => ({
        entries: [entry({ seq: 2, action: 'order-cancelled' }), entry({ seq: 1 })],
        total: 2,
      }),
    });
    render(<List filtered={false} onClear={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Activity entries, newest first' });
    expect(
      within(list)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-labelledby')),
    ).toEqual(['activity-entry-2', 'activity-entry-1']);
    expect(desk.argsOf('activity.list')).toEqual([{ limit: 100, offset: 0 }]);
  });

  it('when the filters match nothing, offers to clear them', async () => {
    installOrderDesk({ 'activity.list': () => ({ entries: [], total: 0 }) });
    const onClear = vi.fn();
    render(<List filtered onClear={onClear} />);
    expect(await screen.findByText('No entry matches the filters.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(onClear).toHaveBeenCalledOnce();
  });
});
