import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ORDER_STATUSES, type AppOrder } from '@shared/api';
import { OrderCountsView, type OrderQuery } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import OrdersScreen from '@renderer/screens/orders/OrdersScreen';
import { OrderRow } from '@renderer/screens/orders/OrderRow';
import { useOrdersStore } from '@renderer/stores/orders-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, type Handlers } from '@test/support/component/fake-order-desk';
import { order } from '@test/support/component/fixtures';

/** Three orders of the mirror, newest first: two New, one Shipped. */
const ORDERS = [
  order({ id: 'ord_1003', createdAt: '2026-11-22T09:30:00.000Z' }),
  order({ id: 'ord_1002', status: 'SHIPPED', createdAt: '2026-11-21T09:30:00.000Z' }),
  order({ id: 'ord_1001' }),
];

/** The mirror as main answers it, a search matching the order id alone. */
function renderQueue(more: Handlers = {}) {
  const matching = (q: OrderQuery) =>
    ORDERS.filter((o) => !q.search || o.id.includes(q.search)).filter(
      (o) => !q.statuses?.length || q.statuses.includes(o.status),
    );
  const desk = installOrderDesk({
    'orders.list': (q) => ({
      orders: matching(q),
      total: matching(q).length,
      possibleDuplicateOf: {},
    }),
    'orders.counts': (q) =>
      OrderCountsView.parse({
        counts: Object.fromEntries(
          ORDER_STATUSES.map((s) => [s, matching(q).filter((o) => o.status === s).length]),
        ),
        total: matching(q).length,
      }),
    'orders.get': ({ orderId }) => ORDERS.find((o) => o.id === orderId)!,
    ...more,
  });
  window.history.replaceState(null, '', '#/orders');
  render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/orders" nest>
        <OrdersScreen />
      </Route>
    </Router>,
  );
  return desk;
}

const check = (id: string) =>
  screen.findByRole('checkbox', { name: `Select order ${id} of Ada Lovelace` });
const rowLinks = () =>
  within(screen.getByRole('list', { name: 'Orders' }))
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'));

beforeEach(() => {
  useOrdersStore.getState().reset();
  useToastStore.setState({ toasts: [] });
  // jsdom has no object URLs, and a download click would be a navigation it cannot make.
  Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
});

describe('OrderFilters and QueueSummary: what the queue shows', () => {
  it('searches after a pause, counts the matches and clears the filters', async () => {
    const desk = renderQueue();
    const user = userEvent.setup();
    expect((await screen.findByText('3 orders')).getAttribute('role')).toBe('status');
    await user.type(screen.getByRole('searchbox', { name: 'Search orders' }), '1002');
    expect(await screen.findByText('1 order match')).toBeTruthy();
    expect(desk.argsOf('orders.list').at(-1)).toMatchObject({ search: '1002', offset: 0 });
    expect(desk.argsOf('orders.counts').at(-1)).toEqual({ search: '1002' });
    expect(rowLinks()).toEqual(['#/orders/ord_1002']);
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('3 orders')).toBeTruthy();
    expect(screen.getByRole('searchbox', { name: 'Search orders' })).toHaveProperty('value', '');
  });

  it('asks for the orders created in a date range', async () => {
    const desk = renderQueue();
    const user = userEvent.setup();
    await screen.findByText('3 orders');
    await user.selectOptions(screen.getByLabelText('Created'), 'Custom range');
    await user.type(screen.getByLabelText('From'), '2026-11-21');
    await user.type(screen.getByLabelText('To'), '2026-11-22');
    await waitFor(() =>
      expect(desk.argsOf('orders.list').at(-1)).toMatchObject({
        createdFrom: expect.stringMatching(/^2026-11-2[01]T/),
        createdTo: expect.stringMatching(/^2026-11-2[23]T/),
      }),
    );
  });
});

describe('ExportOrdersButton: the queue as CSV', () => {
  it('exports every order the queue shows, as filtered', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const desk = renderQueue({
      'orders.exportCsv': () => ({ csv: 'id\r\nord_1003\r\n', rows: 1 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: /^New\b/ }));
    await screen.findByText('2 orders match');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    expect(desk.argsOf('orders.exportCsv')).toEqual([{ statuses: ['NEW'] }]);
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual([
      expect.stringMatching(/^Exported 1 order to order-desk-orders-.*\.csv\.$/),
    ]);
  });

  it('is off, with why, when nothing matches', async () => {
    renderQueue();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search orders' }), 'nobody');
    await screen.findByText('No orders match the search and filters.');
    const button = screen.getByRole('button', { name: 'Export CSV' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Nothing to export')).toBeTruthy();
  });
});

describe('OrderSelectionBar and BulkCancelDialog: cancel the New ones of a selection', () => {
  it('cancels the New orders after saying which are left, then reports each', async () => {
    const desk = renderQueue({
      'orders.cancel': ({ orderId }) => ({
        ok: true,
        order: order({ id: orderId, status: 'CANCELLED' }),
      }),
    });
    const user = userEvent.setup();
    await user.click(await check('ord_1003'));
    await user.click(await check('ord_1002'));
    const bar = screen.getByRole('group', { name: 'Selected orders' });
    await user.click(within(bar).getByRole('button', { name: 'Cancel New…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the selected orders?' });
    await within(dialog).findByRole('button', { name: 'Cancel 1 order' });
    expect(within(dialog).getByRole('list', { name: 'Orders not cancelled' }).textContent).toMatch(
      /^Order ord_1002 \(Ada Lovelace\): /,
    );
    expect(
      desk
        .argsOf('orders.get')
        .map((a) => a.orderId)
        .sort(),
    ).toEqual(['ord_1002', 'ord_1003']);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 order' }));
    const done = await screen.findByRole('alertdialog', { name: 'Bulk cancel finished' });
    expect(desk.argsOf('orders.cancel')).toEqual([{ orderId: 'ord_1003' }]);
    expect(within(done).getByRole('status').textContent).toBe(
      '1 order cancelled. 1 order was not cancelled:',
    );
    await user.click(within(done).getByRole('button', { name: 'Close' }));
    // Done with: the selection goes.
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: 'Selected orders' })).toBeNull(),
    );
  });

  it('keeps the orders on Keep, and clears the selection on Clear', async () => {
    const desk = renderQueue();
    const user = userEvent.setup();
    await user.click(await check('ord_1001'));
    await user.click(screen.getByRole('button', { name: 'Cancel New…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the selected orders?' });
    await user.click(await within(dialog).findByRole('button', { name: 'Keep the orders' }));
    expect(desk.argsOf('orders.cancel')).toEqual([]);
    const bar = screen.getByRole('group', { name: 'Selected orders' });
    expect(within(bar).getByRole('status').textContent).toBe('1 selected');
    await user.click(within(bar).getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('group', { name: 'Selected orders' })).toBeNull();
  });
});

describe('OrderQueue and OrderRow: the keyboard in the queue', () => {
  it('moves between rows with the arrows and selects with Space', async () => {
    renderQueue();
    const user = userEvent.setup();
    const first = await screen.findByRole('link', { name: /^Ada Lovelace, order ord_1003,/ });
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/order ord_1002,/);
    await user.keyboard(' ');
    expect([...useOrdersStore.getState().selected]).toEqual(['ord_1002']);
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/, selected$/);
    await user.keyboard('{End}');
    expect(document.activeElement?.getAttribute('aria-label')).toMatch(/order ord_1001,/);
  });

  it('OrderRow: names the order in one sentence and toggles its checkbox', async () => {
    const onToggle = vi.fn();
    render(
      <ul>
        <li>
          <OrderRow
            order={order({ status: 'CANCELLED' }) satisfies AppOrder}
            selected
            checked={false}
            onToggle={onToggle}
            duplicateOf="ord_0999"
          />
        </li>
      </ul>,
    );
    const link = screen.getByRole('link');
    expect(link.getAttribute('aria-current')).toBe('page');
    expect(link.getAttribute('aria-label')).toMatch(
      /^Ada Lovelace, order ord_1001, created .+, total \$26\.35, Cancelled, a repeat of order ord_0999, cancelled$/,
    );
    expect(within(link).getByText('Repeat, cancelled')).toBeTruthy();
    await userEvent.click(
      screen.getByRole('checkbox', { name: 'Select order ord_1001 of Ada Lovelace' }),
    );
    expect(onToggle).toHaveBeenCalledWith('ord_1001', false);
  });
});
