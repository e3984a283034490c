import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppLineItem, AppOrder } from '@shared/api';
import { OrderStatusChangeView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { OrderDetail } from '@renderer/screens/orders/OrderDetail';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { order, packProduct } from '@test/support/component/fixtures';

const PROTOCOL = '7c2d3e4f-5061-4b72-9c83-a4b5c6d7e8f9';

const line = (over: Partial<AppLineItem> = {}): AppLineItem => ({
  productId: 101,
  quantity: 2,
  packDescription: '2 capsules daily',
  price: '0.20',
  discountedPrice: '0.18',
  administration: { morning: 1, afternoon: 0, evening: 0, sleep: 1 },
  name: 'Magnesium Glycinate 120 mg',
  totalPrice: '10.80',
  external: false,
  imageUrl: null,
  ...over,
});

/** An order shipped with UPS, seen New then Shipped, made from a protocol of this desk. */
const SHIPPED = order({
  status: 'SHIPPED',
  updatedAt: '2026-11-22T09:30:00.000Z',
  lineItems: [line()],
  fulfillmentInfo: {
    carrier: 'UPS',
    trackingNumber: '1Z999AA10123456784',
    trackingStatus: 'InTransit',
    trackingUrl: 'https://track.example.com/1Z999AA10123456784',
    checkpoints: [
      {
        checkpointTime: '2026-11-21T08:00:00.000Z',
        location: 'Portland, OR',
        message: 'Picked up',
        tag: 'InfoReceived',
      },
      {
        checkpointTime: '2026-11-22T08:00:00.000Z',
        location: 'Seattle, WA',
        message: 'In transit',
        tag: 'InTransit',
      },
    ],
  },
});

function renderDetail(current: AppOrder, more: Handlers = {}) {
  const desk = installOrderDesk({
    'orders.get': () => current,
    'orders.protocol': () => ({ protocol: { localId: PROTOCOL, deleted: false } }),
    'orders.timeline': () =>
      z
        .array(OrderStatusChangeView)
        .parse([
          { status: 'NEW', previous: null, seenAt: '2026-11-20T09:30:00.000Z' },
          ...(current.status === 'NEW'
            ? []
            : [{ status: current.status, previous: 'NEW', seenAt: '2026-11-22T09:30:00.000Z' }]),
        ]),
    ...more,
  });
  window.history.replaceState(null, '', `#/orders/${current.id}`);
  render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/orders" nest>
        <OrderDetail orderId={current.id} />
      </Route>
    </Router>,
  );
  return desk;
}

describe('OrderDetail: one order as the mirror has it', () => {
  it('shows its status, line items and totals (OrderLineItems), patient and protocol', async () => {
    const desk = renderDetail(SHIPPED);
    const heading = await screen.findByRole('heading', { level: 2, name: 'Order ord_1001' });
    expect(desk.argsOf('orders.get')).toEqual([{ orderId: 'ord_1001' }]);
    const article = heading.closest('article')!;
    expect(within(article).getAllByText('Shipped')[0]!.classList).toContain('order-badge');
    const items = within(article).getByRole('table', { name: 'Line items' });
    expect([...within(items).getAllByRole('row')[1]!.children].map((c) => c.textContent)).toEqual([
      'Magnesium Glycinate 120 mg2 capsules daily',
      '2',
      '1 morning, 1 bedtime',
      '$0.20 $0.18',
      '$10.80',
    ]);
    const totals = within(article).getByRole('table', { name: 'Totals' });
    expect(within(totals).getByRole('row', { name: /^Total/ }).textContent).toBe('Total$26.35');
    expect(within(article).getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(
      '#/patients/PAT-ADA-1',
    );
    expect(
      (
        await screen.findByRole('link', { name: 'Open the protocol it was made from' })
      ).getAttribute('href'),
    ).toBe(`#/protocols/${PROTOCOL}`);
    // Shipped: no Cancel, and why.
    expect(screen.queryByRole('button', { name: 'Cancel order…' })).toBeNull();
  });

  it('cancels a New order after a confirmation, and says so', async () => {
    const desk = renderDetail(order(), {
      'orders.cancel': () => ({ ok: true, order: order({ status: 'CANCELLED' }) }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel order…' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel this order?' });
    expect(dialog.textContent).toContain('(0 products, $26.35)');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(desk.argsOf('orders.cancel')).toEqual([{ orderId: 'ord_1001' }]);
    expect((await screen.findByRole('status')).textContent).toBe('The order is cancelled.');
  });

  it('reads the order from the server again on Refresh, and says a failed refresh', async () => {
    const desk = renderDetail(SHIPPED, {
      'orders.refresh': () => refuse('network', 'The server cannot be reached.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh' }));
    expect(desk.argsOf('orders.refresh')).toEqual([{ orderId: 'ord_1001' }]);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The order could not be refreshed\./,
    );
  });

  it('says an order not in the mirror is not found', async () => {
    renderDetail(order({ id: 'ord_404' }), {
      'orders.get': () => refuse('not-found', 'No such order.'),
    });
    expect(
      await screen.findByText('Order ord_404 is not among the orders on this computer.'),
    ).toBeTruthy();
  });
});

describe('OrderTimeline and OrderTracking: where the order has been', () => {
  it('lists the statuses seen and the checkpoints, newest first', async () => {
    renderDetail(SHIPPED);
    const steps = await screen.findByRole('list', { name: 'Status changes' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.split('seen')[0]),
    ).toEqual(['New', 'Shipped']);
    expect(within(steps).getAllByRole('listitem')[1]!.getAttribute('aria-current')).toBe('step');
    expect(screen.getByText('1Z999AA10123456784')).toBeTruthy();
    expect(screen.getByText('Tracking status').nextElementSibling?.textContent).toBe('In transit');
    const checkpoints = screen.getByRole('list', { name: 'Tracking checkpoints' });
    expect(
      within(checkpoints)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.order-checkpoint-message')?.textContent),
    ).toEqual(['In transit', 'Picked up']);
  });

  it('opens the carrier page outside the app, and says when it cannot', async () => {
    const desk = renderDetail(SHIPPED, {
      'app.openExternal': () => refuse('internal', 'No browser is set.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Open the tracking page' }));
    expect(desk.argsOf('app.openExternal')).toEqual([
      { url: 'https://track.example.com/1Z999AA10123456784' },
    ]);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The tracking page could not be opened\./,
    );
  });

  it('says a coarse server, and no tracking before the order ships', async () => {
    renderDetail(order({ statusPrecision: 'coarse' }));
    expect(await screen.findByText(/^This server reports statuses in less detail/)).toBeTruthy();
    expect(screen.getByText(/^No tracking yet/)).toBeTruthy();
  });
});

describe('OrderLineItems: a 1.0.1 line, named and priced from the catalog', () => {
  it('reads the product the line does not name, and derives its total', async () => {
    const desk = renderDetail(
      order({
        lineItems: [line({ name: null, totalPrice: null, external: null, packDescription: null })],
      }),
      { 'catalog.product': () => packProduct() },
    );
    const items = await screen.findByRole('table', { name: 'Line items' });
    await within(items).findByText('Magnesium Glycinate 120 mg');
    expect(desk.argsOf('catalog.product')).toEqual([{ id: 101 }]);
    // 2 a day for 30 days at $0.18.
    expect(within(items).getAllByRole('row')[1]!.lastElementChild?.textContent).toBe('$10.80');
  });
});
