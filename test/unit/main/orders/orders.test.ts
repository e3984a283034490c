import { describe, expect, it } from 'vitest';
import { mergeOrder } from '@main/orders/order-merge';
import { appOrder, coarse, memoryStore } from '@test/support/store-fixtures';

const at = (minutes: number) =>
  new Date(Date.parse('2025-03-01T10:00:00Z') + minutes * 60_000).toISOString();

describe('order status precedence (mergeOrder)', () => {
  it('keeps a more exact 1.0.2 status over a consistent coarse 1.0.1 read of the same moment', () => {
    const exact = appOrder('o1', { status: 'DISPENSING', updatedAt: at(5) });
    const read = coarse(appOrder('o1', { status: 'PROCESSING', updatedAt: at(5) }));
    expect(mergeOrder(exact, read)).toMatchObject({
      status: 'DISPENSING',
      statusPrecision: 'exact',
    });
    const delivered = appOrder('o1', { status: 'DELIVERED', updatedAt: at(9) });
    expect(
      mergeOrder(delivered, coarse(appOrder('o1', { status: 'SHIPPED', updatedAt: at(9) }))),
    ).toMatchObject({
      status: 'DELIVERED',
      statusPrecision: 'exact',
    });
  });

  it('a later coarse read in the same class keeps the status as a lower bound, marked coarse', () => {
    const exact = appOrder('o1', { status: 'DISPENSING', updatedAt: at(5) });
    const later = coarse(appOrder('o1', { status: 'PROCESSING', updatedAt: at(7) }));
    expect(mergeOrder(exact, later)).toMatchObject({
      status: 'DISPENSING',
      statusPrecision: 'coarse',
      updatedAt: at(7),
    });
  });

  it('takes a coarse status of another class, and any exact status, as read', () => {
    const exact = appOrder('o1', { status: 'FILLED', updatedAt: at(5) });
    expect(
      mergeOrder(exact, coarse(appOrder('o1', { status: 'FULFILLED', updatedAt: at(6) }))),
    ).toMatchObject({
      status: 'FULFILLED',
      statusPrecision: 'coarse',
    });
    const coarseStored = coarse(appOrder('o1', { status: 'PROCESSING', updatedAt: at(5) }));
    expect(
      mergeOrder(coarseStored, appOrder('o1', { status: 'FILLED', updatedAt: at(5) })),
    ).toMatchObject({
      status: 'FILLED',
      statusPrecision: 'exact',
    });
  });

  it('ignores a read older than what is stored', () => {
    const stored = appOrder('o1', { status: 'SHIPPED', updatedAt: at(10) });
    expect(mergeOrder(stored, appOrder('o1', { status: 'PROCESSING', updatedAt: at(2) }))).toBe(
      stored,
    );
  });

  it('keeps names, totals and tracking details that a 1.0.1 body lacks', () => {
    const tracking = {
      carrier: 'UPS',
      trackingNumber: '1Z999',
      trackingStatus: 'InTransit',
      trackingUrl: 'https://ups.invalid/1Z999',
      checkpoints: [
        { checkpointTime: at(8), location: 'Portland', message: 'Picked up', tag: 'InTransit' },
      ],
    };
    const stored = appOrder('o1', {
      status: 'SHIPPED',
      updatedAt: at(8),
      fulfillmentInfo: tracking,
    });
    const merged = mergeOrder(
      stored,
      coarse(appOrder('o1', { status: 'SHIPPED', updatedAt: at(8), fulfillmentInfo: tracking })),
    );
    expect(merged.lineItems[0]).toMatchObject({
      name: 'Vitamin D3',
      totalPrice: '27.00',
      external: false,
    });
    expect(merged.fulfillmentInfo).toEqual(tracking);
  });
});

describe('OrdersRepo', () => {
  it('upserts with precedence and reports changes', () => {
    const store = memoryStore();
    const first = store.orders.upsert(appOrder('o1', { status: 'DISPENSING', updatedAt: at(5) }), {
      source: 'created',
    });
    expect(first).toMatchObject({ changed: true, statusChanged: false, previous: null });
    const same = store.orders.upsert(
      coarse(appOrder('o1', { status: 'PROCESSING', updatedAt: at(5) })),
      { source: 'pulled' },
    );
    expect(same).toMatchObject({ changed: false, statusChanged: false });
    expect(store.orders.get('o1')).toMatchObject({
      status: 'DISPENSING',
      statusPrecision: 'exact',
    });
    const moved = store.orders.upsert(appOrder('o1', { status: 'FILLED', updatedAt: at(6) }), {
      source: 'pulled',
    });
    expect(moved).toMatchObject({ changed: true, statusChanged: true });
    expect(moved.previous?.status).toBe('DISPENSING');
    const row = store.db
      .prepare('SELECT status, status_precision, source FROM orders WHERE id = ?')
      .get('o1');
    expect(row).toEqual({ status: 'FILLED', status_precision: 'exact', source: 'created' }); // stays 'created'
  });

  it('schedules polls: a new active order is due at once, a final one is never polled', () => {
    const store = memoryStore();
    const now = store.clock.now();
    store.orders.upsert(appOrder('active', { createdAt: at(0) }), { source: 'pulled' });
    store.orders.upsert(appOrder('later', { createdAt: at(1) }), {
      source: 'pulled',
      nextPollAt: now + 60_000,
    });
    store.orders.upsert(appOrder('shipped', { status: 'SHIPPED', createdAt: at(2) }), {
      source: 'pulled',
      nextPollAt: now,
    });
    expect(store.orders.dueForPolling(now, 10).map((d) => d.order.id)).toEqual(['active']);
    expect(store.orders.dueForPolling(now + 60_000, 10).map((d) => d.order.id)).toEqual([
      'active',
      'later',
    ]);

    store.orders.schedulePoll('active', { polledAt: now, nextPollAt: now + 120_000 });
    expect(store.orders.dueForPolling(now + 60_000, 10).map((d) => d.order.id)).toEqual(['later']);
    const [due] = store.orders.dueForPolling(now + 120_000, 1);
    expect(due).toMatchObject({ lastPolledAt: null, nextPollAt: now + 60_000 });
    expect(
      store.orders.dueForPolling(now + 120_000, 10).find((d) => d.order.id === 'active')
        ?.lastPolledAt,
    ).toBe(now);

    // reaching a final status stops polling
    store.orders.upsert(coarse(appOrder('active', { status: 'SHIPPED', updatedAt: at(30) })), {
      source: 'pulled',
      nextPollAt: now,
    });
    expect(store.orders.dueForPolling(now + 1e9, 10).map((d) => d.order.id)).toEqual(['later']);
    expect(store.orders.schedulePoll('shipped', { nextPollAt: now })).toBe(true);
    expect(store.orders.dueForPolling(now + 1e9, 10).map((d) => d.order.id)).toEqual(['later']);
  });

  it('lists newest first with filters', () => {
    const store = memoryStore();
    store.orders.upsertMany(
      [
        appOrder('a', { createdAt: at(1), status: 'NEW' }),
        appOrder('b', {
          createdAt: at(2),
          status: 'CANCELLED',
          customer: { ...appOrder('x').customer, sourceId: 'other' },
        }),
        appOrder('c', { createdAt: at(3), status: 'NEW' }),
      ],
      'pulled',
    );
    expect(store.orders.list().map((o) => o.id)).toEqual(['c', 'b', 'a']);
    expect(store.orders.list({ statuses: ['NEW'] }).map((o) => o.id)).toEqual(['c', 'a']);
    expect(store.orders.list({ sourceId: 'other' }).map((o) => o.id)).toEqual(['b']);
    expect(store.orders.list({ createdFrom: at(2), createdTo: at(2) }).map((o) => o.id)).toEqual([
      'b',
    ]);
    expect(store.orders.list({ limit: 1, offset: 1 }).map((o) => o.id)).toEqual(['b']);
    expect(store.orders.count()).toBe(3);
    expect(store.orders.count({ statuses: ['CANCELLED'] })).toBe(1);
  });
});
