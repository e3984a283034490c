import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { describe, expect, it, vi } from 'vitest';
import { ORDER_STATUSES, type AppOrder, type OrderStatus } from '@shared/api';
import { OrderCountsView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import OrdersScreen from '@renderer/screens/orders/OrdersScreen';
import { useOrdersStore } from '@renderer/stores/orders-store';
import { installOrderDesk, type Handlers } from '@test/support/component/fake-order-desk';
import { order } from '@test/support/component/fixtures';

/** The queue as App.tsx routes it: #/orders, under the guarded hash location. */
function renderQueue() {
  // Set without a hashchange event, which would come a task later and meet the screen mounted.
  window.history.replaceState(null, '', '#/orders');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/orders" nest>
        <OrdersScreen />
      </Route>
    </Router>,
  );
}

/** The mirror's answers: one page holding `orders`, and their counts by status. */
function mirror(
  orders: () => AppOrder[],
  duplicates: Record<string, string> = {},
  more: Handlers = {},
) {
  return installOrderDesk({
    ...more,
    'orders.list': () => ({
      orders: orders(),
      total: orders().length,
      possibleDuplicateOf: duplicates,
    }),
    // Every known status, zero included, as main counts them.
    'orders.counts': () =>
      OrderCountsView.parse({
        counts: Object.fromEntries(
          ORDER_STATUSES.map((s) => [s, orders().filter((o) => o.status === s).length]),
        ),
        total: orders().length,
      }),
  });
}

const rowOf = (orderId: string) =>
  screen.findByRole('link', { name: new RegExp(`^Ada Lovelace, order ${orderId},`) });

describe('the order queue', () => {
  it('shows a status change on the row once main says orders changed', async () => {
    let status: OrderStatus = 'NEW';
    const desk = mirror(() => [order({ status })]);
    renderQueue();
    const row = await rowOf('ord_1001');
    expect(within(row).getByText('New').classList).toContain('order-badge');
    expect(row.getAttribute('aria-label')).toMatch(/, New$/);

    status = 'SHIPPED';
    await desk.emit('changed', { subjects: ['orders'] });
    await within(await rowOf('ord_1001')).findByText('Shipped');
    expect((await rowOf('ord_1001')).getAttribute('aria-label')).toMatch(/, Shipped$/);
    expect(screen.queryByText('New', { selector: '.order-badge' })).toBeNull();
  });

  it('marks a possible duplicate with the order it may repeat', async () => {
    mirror(
      () => [
        order({ id: 'ord_1002', createdAt: '2026-11-21T09:30:00.000Z' }),
        order({ id: 'ord_1001' }),
      ],
      { ord_1002: 'ord_1001' },
    );
    renderQueue();
    const repeat = await rowOf('ord_1002');
    const mark = within(repeat).getByText('Possible duplicate');
    expect(mark.getAttribute('title')).toBe('May repeat order ord_1001');
    expect(repeat.getAttribute('aria-label')).toMatch(/, possible duplicate of order ord_1001$/);
    // The order it repeats is not itself marked.
    expect(within(await rowOf('ord_1001')).queryByText('Possible duplicate')).toBeNull();
  });

  it('never counts a row out of view: a new filter clears the selection, so does a done export', async () => {
    useOrdersStore.getState().reset();
    const desk = mirror(
      () => [
        order({ id: 'ord_1003', status: 'SHIPPED', createdAt: '2026-11-22T09:30:00.000Z' }),
        order({ id: 'ord_1002', createdAt: '2026-11-21T09:30:00.000Z' }),
        order({ id: 'ord_1001' }),
      ],
      {},
      { 'orders.exportCsv': () => ({ csv: 'id\r\nord_1001\r\n', rows: 1 }) },
    );
    const user = userEvent.setup();
    renderQueue();
    const check = (id: string) =>
      screen.findByRole('checkbox', { name: `Select order ${id} of Ada Lovelace` });
    const bar = () => screen.queryByRole('group', { name: 'Selected orders' });
    await user.click(await check('ord_1003'));
    await user.click(await check('ord_1002'));
    expect(within(bar()!).getByRole('status').textContent).toBe('2 selected');

    // Only New orders in view: the Shipped one chosen before would be counted out of sight.
    await user.click(screen.getByRole('checkbox', { name: /^New\b/ }));
    await waitFor(() => expect(bar()).toBeNull());
    expect(await check('ord_1002')).toHaveProperty('checked', false);

    // An export once done lets its selection go, and the focus goes to the screen's title.
    // jsdom has no object URLs, and a download click would be a navigation it cannot make.
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(await check('ord_1001'));
    await user.click(within(bar()!).getByRole('button', { name: 'Export selected' }));
    await waitFor(() => expect(bar()).toBeNull());
    expect(desk.argsOf('orders.exportCsv')).toEqual([{ orderIds: ['ord_1001'] }]);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Orders' }));
  });
});
