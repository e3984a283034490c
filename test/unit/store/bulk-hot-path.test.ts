import { describe, expect, it } from 'vitest';
import type { CreateOrderRequest } from '../../../src/shared/api';
import { StoreError } from '../../../src/main/store';
import { appOrder, memoryStore } from './fixtures';

/** Every column of the mirrored order, as stored (the body's JSON as a value). */
function orderRow(store: ReturnType<typeof memoryStore>, id: string) {
  const row = store.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as
    { body: string } | undefined;
  return row && { ...row, body: JSON.parse(row.body) as unknown };
}

const request = (sourceId: string): CreateOrderRequest => ({
  customer: {
    sourceId,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    address: { line1: '1 Main St', city: 'Portland', state: 'OR', zipCode: '97210' },
  },
  daysSupply: 30,
  shippingMethod: 'STANDARD',
  orderType: 'ONE_TIME',
  lineItems: [{ productId: 1035, quantity: 1, administration: null }],
});

describe('OrdersRepo.insertCreated', () => {
  it('stores a new order exactly as upsert stores it', () => {
    const a = memoryStore();
    const b = memoryStore();
    const active = appOrder('ord_new');
    const shipped = appOrder('ord_final', { status: 'SHIPPED' });
    a.orders.insertCreated(active);
    a.orders.insertCreated(shipped);
    b.orders.upsert(active, { source: 'created' });
    b.orders.upsert(shipped, { source: 'created' });
    expect(orderRow(a, 'ord_new')).toEqual(orderRow(b, 'ord_new'));
    expect(orderRow(a, 'ord_final')).toEqual(orderRow(b, 'ord_final'));
    expect(orderRow(a, 'ord_new')).toMatchObject({
      source: 'created',
      next_poll_at: a.clock.now(),
    });
    expect(orderRow(a, 'ord_final')).toMatchObject({ next_poll_at: null });
    expect(a.orders.get('ord_new')).toEqual(active);
  });

  it('merges into an order a pull mirrored first, which becomes one created here', () => {
    const store = memoryStore();
    store.orders.upsert(appOrder('ord_1', { status: 'NEW' }), { source: 'pulled' });
    store.clock.advance(1_000);
    store.orders.insertCreated(
      appOrder('ord_1', { status: 'DISPENSING', updatedAt: '2025-03-01T10:05:00Z' }),
    );
    expect(store.orders.get('ord_1')).toMatchObject({ status: 'DISPENSING' });
    expect(orderRow(store, 'ord_1')).toMatchObject({
      source: 'created',
      local_updated_at: store.clock.now(),
    });
  });
});

describe('BatchesRepo paths of the bulk run', () => {
  it('claimNextStatus claims like claimNext without the request; request() reads it', () => {
    const store = memoryStore();
    const batch = store.batches.insertBatch(
      [
        { protocolLocalId: 'p-0', request: request('s-0') },
        { protocolLocalId: 'p-1', request: request('s-1') },
      ],
      { concurrency: 2 },
    );
    const now = store.clock.now();
    const claimed = store.batches.claimNextStatus(batch.id, now);
    expect(claimed).toEqual({
      batchId: batch.id,
      seq: 0,
      protocolLocalId: 'p-0',
      state: 'sending',
      orderId: null,
      error: null,
      attempts: 1,
      sentAt: now,
      nextAttemptAt: null,
      updatedAt: now,
    });
    expect(store.batches.request(batch.id, 0)).toEqual(request('s-0'));
    expect(store.batches.claimNext(batch.id, now)).toMatchObject({
      seq: 1,
      request: request('s-1'),
    });
    expect(store.batches.claimNextStatus(batch.id, now)).toBeNull();
    expect(() => store.batches.request(batch.id, 7)).toThrow(StoreError);
  });

  it('insertBatch refuses an empty batch and a protocol listed twice, leaving nothing', () => {
    const store = memoryStore();
    expect(() => store.batches.insertBatch([], { concurrency: 1 })).toThrow(/at least one/);
    const twice = [
      { protocolLocalId: 'p-0', request: request('s-0') },
      { protocolLocalId: 'p-0', request: request('s-0') },
    ];
    expect(() => store.batches.insertBatch(twice, { concurrency: 1 })).toThrow(/twice/);
    expect(store.batches.list()).toEqual([]);
  });

  it('recordCreated records the item and mirrors the order; again is a no-op; a wrong state throws', () => {
    const store = memoryStore();
    const batch = store.batches.insertBatch(
      [
        { protocolLocalId: 'p-0', request: request('s-0') },
        { protocolLocalId: 'p-1', request: request('s-1') },
      ],
      { concurrency: 2 },
    );
    store.batches.claimNextStatus(batch.id, store.clock.now());
    store.batches.recordCreated(batch.id, 0, appOrder('ord_0'));
    store.batches.recordCreated(batch.id, 0, appOrder('ord_0'));
    expect(store.batches.item(batch.id, 0)).toMatchObject({ state: 'created', orderId: 'ord_0' });
    expect(orderRow(store, 'ord_0')).toMatchObject({ source: 'created' });
    expect(() => store.batches.recordCreated(batch.id, 1, appOrder('ord_1'))).toThrow(
      /is queued, not sending or in_doubt/,
    );
    expect(store.orders.get('ord_1')).toBeNull();
  });
});
