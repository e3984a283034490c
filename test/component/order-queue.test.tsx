import { render, screen, within } from '@testing-library/react';
import { Route, Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES, type AppOrder, type OrderStatus } from '../../src/shared/api';
import { OrderCountsView } from '../../src/shared/work-views';
import { useGuardedHashLocation } from '../../src/renderer/src/lib/navigation-guard';
import OrdersScreen from '../../src/renderer/src/screens/orders/OrdersScreen';
import { installOrderDesk } from '../support/component/fake-order-desk';
import { order } from '../support/component/fixtures';

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
function mirror(orders: () => AppOrder[], duplicates: Record<string, string> = {}) {
  return installOrderDesk({
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
});
