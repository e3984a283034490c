import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunView } from '@renderer/screens/batches/RunView';
import { BatchCounts } from '@renderer/screens/batches/BatchCounts';
import { useAppStore } from '@renderer/stores/app-store';
import { useBatchesStore } from '@renderer/stores/batches-store';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { BATCH_ID, PROTOCOL_ID, batch, batchItem } from '@test/support/component/batch-fixtures';
import { order } from '@test/support/component/fixtures';

/** The batch's three items: one created, one refused by the server, one held back. */
const CREATED = batchItem();
const REJECTED = batchItem({
  seq: 1,
  customerName: 'Grace Hopper',
  sourceId: 'PAT-GH-2',
  state: 'rejected',
  orderId: null,
  orderStatus: null,
  message: 'Product 99999 is discontinued.',
});
const HELD = batchItem({
  seq: 2,
  customerName: 'Alan Turing',
  sourceId: 'PAT-AT-3',
  state: 'rejected',
  orderId: null,
  orderStatus: null,
  message: 'The patient already has this order.',
  held: [{ orderId: 'ord_0900', createdAt: '2026-11-19T09:30:00.000Z', status: 'NEW' }],
});
const PROGRESS = { state: 'done', queued: 0, created: 1, rejected: 2, held: 1 } as const;

/** The list's own rows (an item's repeated orders are a list inside its row). */
const itemRows = () =>
  [
    ...screen.getByRole('list', { name: 'Orders of the batch' }).querySelectorAll(':scope > li'),
  ] as HTMLElement[];

function renderRun(handlers: Handlers) {
  const desk = installOrderDesk(handlers);
  render(<RunView batchId={BATCH_ID} valid />);
  return desk;
}

beforeEach(() => {
  useAppStore.getState().setConnectivity(true, null);
  useBatchesStore.getState().reset();
});

describe('RunView: a batch as it runs', () => {
  it('shows the title, state, counts (BatchCounts) and every item (ItemList, ItemRow)', async () => {
    const desk = renderRun({
      'batches.list': () => [batch({}, PROGRESS)],
      'batches.items': () => [CREATED, REJECTED, HELD],
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Batch of 3 protocols' }),
    ).toBeTruthy();
    expect(desk.argsOf('batches.items')).toEqual([{ batchId: BATCH_ID }]);
    expect(screen.getByRole('status').textContent).toBe('Finished, 1 rejected, 1 held back');
    expect(screen.getByLabelText('Orders per state').tagName).toBe('DL');
    expect(
      ['created', 'rejected', 'held', 'total'].map(
        (k) => screen.getByTestId(`count-${k}`).textContent,
      ),
    ).toEqual(['Created1', 'Rejected1', 'Held back1', 'Total3']);
    const rows = itemRows();
    expect(rows).toHaveLength(3);
    expect(
      within(rows[0]!)
        .getByRole('link', { name: /ord_1001$/ })
        .getAttribute('href'),
    ).toBe('#/orders/ord_1001');
    expect(within(rows[1]!).getByText('Product 99999 is discontinued.')).toBeTruthy();
    expect(
      within(rows[1]!)
        .getByRole('link', { name: 'Fix protocol of Grace Hopper' })
        .getAttribute('href'),
    ).toBe(`#/protocols/${PROTOCOL_ID}`);
    expect(within(rows[2]!).getByText('Held back')).toBeTruthy();
    expect(
      within(rows[2]!).getByRole('list', { name: 'Orders Alan Turing already has' }),
    ).toBeTruthy();
  });

  it('filters the items by what needs a look (ItemFilterChoice)', async () => {
    renderRun({
      'batches.list': () => [batch({}, PROGRESS)],
      'batches.items': () => [CREATED, REJECTED, HELD],
    });
    const user = userEvent.setup();
    const show = await screen.findByRole('group', { name: 'Show' });
    expect(within(show).getByRole('radio', { name: 'All (3)' })).toHaveProperty('checked', true);
    await user.click(within(show).getByRole('radio', { name: 'Needs a look (2)' }));
    const names = () => itemRows().map((li) => li.querySelector('.batch-item-name')?.textContent);
    expect(names()).toEqual(['Grace Hopper', 'Alan Turing']);
    await user.click(within(show).getByRole('radio', { name: 'Created (1)' }));
    expect(names()).toEqual(['Ada Lovelace']);
  });

  it('retries a rejected item, sends a held one anyway (ItemRow)', async () => {
    const desk = renderRun({
      'batches.list': () => [batch({}, PROGRESS)],
      'batches.items': () => [CREATED, REJECTED, HELD],
      'batches.retryItem': () => batch(),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Retry order of Grace Hopper' }));
    await user.click(screen.getByRole('button', { name: 'Send the order of Alan Turing anyway' }));
    await waitFor(() => expect(desk.argsOf('batches.retryItem')).toHaveLength(2));
    expect(desk.argsOf('batches.retryItem')).toEqual([
      { batchId: BATCH_ID, seq: 1 },
      { batchId: BATCH_ID, seq: 2, sendAnyway: true },
    ]);
  });

  it('pauses a running batch and continues a paused one', async () => {
    let state: 'running' | 'paused' = 'running';
    const desk = renderRun({
      'batches.list': () => [batch({}, { state })],
      'batches.items': () => [CREATED],
      'batches.pause': () => batch({}, { state: 'paused' }),
      'batches.continue': () => batch(),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(desk.argsOf('batches.pause')).toEqual([{ batchId: BATCH_ID }]);
    state = 'paused';
    await desk.emit('changed', { subjects: ['batches'] });
    expect(await screen.findByText(/^Paused: no more orders are sent/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(desk.argsOf('batches.continue')).toEqual([{ batchId: BATCH_ID }]);
  });

  it('says a batch the list does not hold is not found', async () => {
    renderRun({
      'batches.list': () => [],
      'batches.items': () => refuse('not-found', 'No such batch.'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Batch not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'All batches' }).getAttribute('href')).toBe(
      '#/batches',
    );
  });
});

describe('PossibleDuplicates: an order that may repeat an item, cancelled after a confirmation', () => {
  it('asks before it cancels the repeat, then sends the cancel', async () => {
    const desk = renderRun({
      'batches.list': () => [batch({}, { ...PROGRESS, possibleDuplicates: 1 })],
      'batches.items': () => [
        batchItem({
          possibleDuplicates: [
            { orderId: 'ord_1002', of: 'ord_1001', status: 'NEW', autoCancel: null },
          ],
        }),
      ],
      'orders.cancel': () => ({ ok: true, order: order({ id: 'ord_1002', status: 'CANCELLED' }) }),
    });
    const user = userEvent.setup();
    const group = await screen.findByRole('group', {
      name: 'Possible duplicates for Ada Lovelace',
    });
    expect(within(group).getByText(/repeats ord_1001/)).toBeTruthy();
    await user.click(within(group).getByRole('button', { name: 'Cancel order ord_1002' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel order ord_1002?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the order' }));
    await waitFor(() => expect(desk.argsOf('orders.cancel')).toEqual([{ orderId: 'ord_1002' }]));
  });

  it('says a repeat the app cancelled by itself, with nothing to do', async () => {
    renderRun({
      'batches.list': () => [batch({}, PROGRESS)],
      'batches.items': () => [
        batchItem({
          possibleDuplicates: [
            { orderId: 'ord_1002', of: 'ord_0999', status: 'CANCELLED', autoCancel: 'done' },
          ],
        }),
      ],
    });
    const group = await screen.findByRole('group', { name: 'Repeats cancelled for Ada Lovelace' });
    expect(
      within(group).getByText(/Cancelled by Order Desk: another desk ordered the same/),
    ).toBeTruthy();
    expect(within(group).queryByRole('button')).toBeNull();
  });
});

describe('BatchCounts: the items per state', () => {
  it('counts orders cancelled since apart from those created', () => {
    render(
      <BatchCounts
        progress={batch({}, { created: 3, rejected: 0, total: 4 }).progress}
        cancelled={1}
      />,
    );
    expect(screen.getByTestId('count-created').textContent).toBe('Created2');
    expect(screen.getByTestId('count-cancelled').textContent).toBe('Cancelled1');
    expect(screen.queryByTestId('count-held')).toBeNull();
  });
});
