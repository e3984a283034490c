import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import BatchesScreen from '@renderer/screens/batches/BatchesScreen';
import { ProgressBar } from '@renderer/screens/batches/ProgressBar';
import { useAppStore } from '@renderer/stores/app-store';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { installOrderDesk, pass, refuse } from '@test/support/component/fake-order-desk';
import { BATCH_ID, batch, batchItem } from '@test/support/component/batch-fixtures';

const OLDER = '8d3e4f50-6172-4c83-8d94-b5c6d7e8f9a0';

/** The batches routes as App.tsx mounts them, at `hash`. */
function renderAt(hash: string) {
  window.history.replaceState(null, '', hash);
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/batches" nest>
        <BatchesScreen />
      </Route>
    </Router>,
  );
}

beforeEach(() => {
  useAppStore.getState().setConnectivity(true, null);
  useBatchDraftStore.getState().choose([], '/protocols');
});

describe('BatchesScreen: one route each for the list, a run and the review', () => {
  it('shows the list at /batches, a batch at /batches/:id and the review at /batches/review', async () => {
    installOrderDesk({
      'batches.list': () => [batch()],
      'batches.items': () => [batchItem()],
    });
    const { unmount } = renderAt('#/batches');
    expect(await screen.findByRole('heading', { level: 1, name: 'Batches' })).toBeTruthy();
    unmount();

    const run = renderAt(`#/batches/${BATCH_ID}`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Batch of 3 protocols' }),
    ).toBeTruthy();
    run.unmount();

    const desk = installOrderDesk({});
    renderAt('#/batches/review');
    await pass(0);
    expect(desk.calls).toEqual([]);
    expect(screen.getByRole('heading', { level: 1, name: 'Review the batch' })).toBeTruthy();
    expect(screen.getByText('No protocols are chosen for a batch.')).toBeTruthy();
  });
  it('says an address that names no batch is not found, without asking main', async () => {
    const desk = installOrderDesk({ 'batches.list': () => [batch()] });
    renderAt('#/batches/not-a-batch');
    expect(await screen.findByRole('heading', { level: 1, name: 'Batch not found' })).toBeTruthy();
    await pass(0);
    expect(desk.argsOf('batches.items')).toEqual([]);
  });
});

describe('BatchList: every batch, newest first, with its outcome and totals', () => {
  it('lists each batch with its progress and counts, and sums them in the footer', async () => {
    const desk = installOrderDesk({
      'batches.list': () => [
        batch(
          {
            id: OLDER,
            createdAt: Date.parse('2026-11-18T09:30:00.000Z'),
            name: 'Monday',
            ordered: {
              standing: { orders: 2, amount: '52.70' },
              cancelled: { orders: 0, amount: '0.00' },
              refused: 0,
            },
          },
          { state: 'done', queued: 0, total: 2, created: 2, rejected: 0 },
        ),
        batch({
          ordered: {
            standing: { orders: 1, amount: '26.35' },
            cancelled: { orders: 1, amount: '31.20' },
            refused: 1,
          },
        }),
      ],
    });
    renderAt('#/batches');
    const table = await screen.findByRole('table');
    expect(desk.argsOf('batches.list')).toEqual([{}]);
    const rows = within(table).getAllByRole('row').slice(1, -1);
    // Newest first, whatever order main answered in.
    expect(rows.map((r) => within(r).getByRole('link').getAttribute('href'))).toEqual([
      `#/batches/${BATCH_ID}`,
      `#/batches/${OLDER}`,
    ]);
    expect(within(rows[0]!).getByTestId('batch-cancelled').textContent).toBe(
      '1 ($31.20 not charged)',
    );
    expect(within(rows[0]!).getByText('Running')).toBeTruthy();
    expect(within(rows[1]!).getByRole('link').textContent).toMatch(/^Monday/);
    expect(within(rows[1]!).getByText('Finished')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(
      '2 batches, 1 unfinished: 3 orders standing, $79.05 · 1 cancelled · $31.20 not charged · 1 refused by the server',
    );
    expect(screen.getByTestId('batches-created').textContent).toBe('3');
    expect(screen.getByTestId('batches-total').textContent).toBe('$79.05');
  });

  it('says what to do when there is no batch yet', async () => {
    installOrderDesk({ 'batches.list': () => [] });
    renderAt('#/batches');
    expect(await screen.findByText('No batches yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the protocols' }).getAttribute('href')).toBe(
      '#/protocols',
    );
  });

  it('says a failed read and reads again on Try again', async () => {
    let fail = true;
    const desk = installOrderDesk({
      'batches.list': () => (fail ? refuse('internal', 'The disk is unreadable.') : [batch()]),
    });
    renderAt('#/batches');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The batches could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeTruthy();
    expect(desk.argsOf('batches.list')).toHaveLength(2);
  });
});

describe('ProgressBar: settled orders as a share of the batch', () => {
  it('names its value in words and sizes each share', () => {
    render(
      <ProgressBar
        progress={batch({}, { total: 4, created: 2, rejected: 1, held: 1, queued: 1 }).progress}
        label="Orders settled"
      />,
    );
    const bar = screen.getByRole('progressbar', { name: 'Orders settled' });
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(bar.getAttribute('aria-valuetext')).toBe('3 of 4 settled: 2 created, 1 held back');
    const widths = [...bar.children].map((s) => (s as HTMLElement).style.width);
    expect(widths).toEqual(['50%', '0%', '25%']);
  });
});
