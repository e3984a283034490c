import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/main/store';
import { appOrder, batchOf, memoryStore, orderRequest } from './fixtures';

/** Every column of the mirrored order, as stored (the body's JSON as a value). */
function orderRow(store: ReturnType<typeof memoryStore>, id: string) {
  const row = store.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as
    { body: string } | undefined;
  return row && { ...row, body: JSON.parse(row.body) as unknown };
}

const request = orderRequest;

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
  it('claimDueKeys claims like claimNext, answering seq and attempts only; requests() reads the requests', () => {
    const store = memoryStore();
    const batch = batchOf(store, 2);
    const now = store.clock.now();
    expect(store.batches.claimDueKeys(batch.id, now, 1)).toEqual([{ seq: 0, attempts: 1 }]);
    expect(store.batches.item(batch.id, 0)).toMatchObject({
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
    expect(store.batches.requests(batch.id, [0]).get(0)).toEqual(request('s-0'));
    expect(store.batches.claimNext(batch.id, now)).toMatchObject({
      seq: 1,
      request: request('s-1'),
    });
    expect(store.batches.claimDueKeys(batch.id, now, 5)).toEqual([]);
    expect(() => store.batches.requests(batch.id, [7])).toThrow(StoreError);
    expect(store.batches.requests(batch.id, [1, 0])).toEqual(
      new Map([
        [0, request('s-0')],
        [1, request('s-1')],
      ]),
    );
    expect(() => store.batches.requests(batch.id, [0, 7])).toThrow(/No batch item .*#7/);
  });

  it('claimDue claims up to max due items in seq order in one statement, none of a paused batch', () => {
    const store = memoryStore();
    const batch = batchOf(store, 6, 2);
    const now = store.clock.now();
    // Item 1 is requeued for later: the claim skips it until it is due.
    store.batches.claimNext(batch.id, now);
    store.batches.claimNext(batch.id, now);
    store.batches.requeue(batch.id, 0, { nextAttemptAt: null });
    store.batches.requeue(batch.id, 1, { nextAttemptAt: now + 60_000 });

    const first = store.batches.claimDue(batch.id, now, 3);
    expect(first.map((i) => [i.seq, i.state, i.sentAt])).toEqual([
      [0, 'sending', now],
      [2, 'sending', now],
      [3, 'sending', now],
    ]);
    expect(first.map((i) => i.request)).toEqual([request('s-0'), request('s-2'), request('s-3')]);
    expect(first[0]!.attempts).toBe(2);

    store.batches.setState(batch.id, 'paused');
    expect(store.batches.claimDue(batch.id, now, 10)).toEqual([]);
    store.batches.setState(batch.id, 'running');
    expect(store.batches.claimDueKeys(batch.id, now, 10).map((i) => i.seq)).toEqual([4, 5]);
    expect(store.batches.claimDueKeys(batch.id, now + 60_000, 10)).toEqual([
      { seq: 1, attempts: 2 },
    ]);
  });

  it("recordCreatedAll records many orders in the caller's transaction and refuses to run outside one", () => {
    const store = memoryStore();
    const batch = batchOf(store, 3, 1);
    store.batches.claimDueKeys(batch.id, store.clock.now(), 3);
    const created = [0, 1, 2].map((seq) => ({ seq, order: appOrder(`ord_${seq}`) }));
    expect(() => store.batches.recordCreatedAll(batch.id, created)).toThrow(/needs a transaction/);
    // One refused record undoes the whole group: the caller replays them one by one.
    const clash = [...created.slice(0, 2), { seq: 2, order: appOrder('ord_0') }];
    expect(() => store.transaction(() => store.batches.recordCreatedAll(batch.id, clash))).toThrow(
      /already the order of another batch item/,
    );
    expect(store.batches.progress(batch.id)).toMatchObject({ sending: 3, created: 0 });
    expect(store.orders.get('ord_0')).toBeNull();

    store.transaction(() => store.batches.recordCreatedAll(batch.id, created));
    expect(store.batches.items(batch.id).map((i) => [i.state, i.orderId])).toEqual([
      ['created', 'ord_0'],
      ['created', 'ord_1'],
      ['created', 'ord_2'],
    ]);
    expect(orderRow(store, 'ord_2')).toMatchObject({ source: 'created' });
  });

  it('releaseClaims puts unsent claims back in the queue, uncounted, and touches nothing else', () => {
    const store = memoryStore();
    const batch = batchOf(store, 3, 1);
    const now = store.clock.now();
    store.batches.claimDue(batch.id, now, 3);
    store.batches.recordCreated(batch.id, 0, appOrder('ord_0'));
    expect(store.batches.releaseClaims(batch.id, [0, 1, 2])).toBe(2); // 0 is created: left alone
    expect(store.batches.items(batch.id).map((i) => [i.state, i.attempts])).toEqual([
      ['created', 1],
      ['queued', 0],
      ['queued', 0],
    ]);
    expect(store.batches.progress(batch.id)).toMatchObject({ queued: 2, sending: 0, created: 1 });
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
    const batch = batchOf(store, 2);
    store.batches.claimDueKeys(batch.id, store.clock.now(), 1);
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
