import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppOrder, OrderStatus } from '../../../src/shared/api';
import type { OrderDeskApi } from '../../../src/shared/ipc';
import { rendererWindow } from '../../support/renderer-window';

/**
 * The order queue and the open detail take order-status events in bursts: many events a second
 * (the poller walking a page of orders) must not mean one query per event.
 */

const order = (id: string, status: OrderStatus): AppOrder => ({
  id,
  discount: '15%',
  daysSupply: 30,
  orderType: 'ONE_TIME',
  shippingMethod: 'STANDARD',
  status,
  statusPrecision: 'exact',
  fulfillmentInfo: null,
  customer: {
    sourceId: `p-${id}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: null,
    phone: null,
    address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
  },
  lineItems: [],
  subtotalPrice: '1.00',
  totalDiscount: '0.00',
  totalFees: '0.00',
  totalShipping: '0.00',
  totalVolumeDiscount: '0.00',
  totalPrice: '1.00',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
});

const STATUSES: OrderStatus[] = ['NEW', 'PROCESSING', 'DISPENSING', 'FILLED', 'FULFILLED'];
const ids = ['ord_a', 'ord_b', 'ord_c'];
let server: Map<string, AppOrder>;
let calls: string[];

async function load() {
  vi.resetModules();
  const live = await import('../../../src/renderer/src/stores/orders-live');
  const { useOrdersStore } = await import('../../../src/renderer/src/stores/orders-store');
  const { useOrderDetailStore } =
    await import('../../../src/renderer/src/stores/order-detail-store');
  return { live, useOrdersStore, useOrderDetailStore };
}

beforeEach(() => {
  vi.useFakeTimers();
  server = new Map(ids.map((id) => [id, order(id, 'NEW')]));
  calls = [];
  const call = async (channel: string, args: { orderId?: string }) => {
    calls.push(channel);
    const all = [...server.values()];
    switch (channel) {
      case 'orders.list':
        return { ok: true, value: { orders: all, total: all.length } };
      case 'orders.counts':
        return { ok: true, value: { counts: {}, total: all.length } };
      case 'orders.get':
        return { ok: true, value: server.get(args.orderId!) };
      case 'orders.timeline':
        return { ok: true, value: [] };
      default:
        throw new Error(`unexpected call ${channel}`);
    }
  };
  vi.stubGlobal(
    'window',
    rendererWindow({ call, on: () => () => undefined } as unknown as OrderDeskApi),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('order-status events', () => {
  it('a burst of 1,000 events over a second makes a handful of queries, and every row ends at its last status', async () => {
    const { live, useOrdersStore, useOrderDetailStore } = await load();
    await useOrdersStore.getState().reload();
    useOrderDetailStore.getState().open('ord_b');
    await vi.advanceTimersByTimeAsync(0);
    calls = [];

    for (let i = 0; i < 1000; i++) {
      const id = ids[i % ids.length]!;
      const next = order(id, STATUSES[Math.floor(i / ids.length) % STATUSES.length]!);
      server.set(id, next);
      live.noteOrderStatus({ orderId: id, previous: null, status: next.status, order: next });
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(2000);

    const count = (c: string) => calls.filter((x) => x === c).length;
    // One read of the rows and counts per 400 ms at most, one timeline read per 250 ms flush.
    expect(count('orders.list')).toBeGreaterThanOrEqual(1);
    expect(count('orders.list')).toBeLessThanOrEqual(5);
    expect(count('orders.counts')).toBeLessThanOrEqual(5);
    expect(count('orders.timeline')).toBeLessThanOrEqual(6);
    expect(count('orders.get')).toBe(0); // the event carries the order

    const rows = useOrdersStore.getState().pages[0]!;
    for (const row of rows) expect(row.status).toBe(server.get(row.id)!.status);
    const detail = useOrderDetailStore.getState().order;
    expect(detail?.state === 'ready' && detail.value.status).toBe(server.get('ord_b')!.status);
  });

  it('events for orders not on screen only ask for one re-read, and nothing when the queue was never opened', async () => {
    const { live, useOrdersStore } = await load();
    live.noteOrderStatus({
      orderId: 'ord_x',
      previous: 'NEW',
      status: 'SHIPPED',
      order: order('ord_x', 'SHIPPED'),
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toEqual([]);

    await useOrdersStore.getState().reload();
    calls = [];
    for (let i = 0; i < 50; i++)
      live.noteOrderStatus({
        orderId: `ord_new_${i}`,
        previous: null,
        status: 'NEW',
        order: order(`ord_new_${i}`, 'NEW'),
      });
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls.sort()).toEqual(['orders.counts', 'orders.list']);
  });
});
