import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobError } from '@main/jobs/job-model';
import { StoreError } from '@main/db';
import { createLocalStore } from '@main/stores';
import {
  appOrder,
  batchOf,
  manualClock,
  memoryStore,
  orderRequest,
} from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

type Store = ReturnType<typeof memoryStore>;

const discontinued: JobError = {
  kind: 'validation',
  issues: [{ loc: ['body', 'lineItems', 0, 'productId'], type: 'invalid', msg: 'DISCONTINUED' }],
};

const jobCount = (store: Store) =>
  (store.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;

/** The runner's claim: every due order job that the free places allow, in one transaction. */
const claim = (store: Store, at = store.clock.now(), concurrency = 4) =>
  store.transaction(() => store.jobs.claimDue('order', at, concurrency));
const ids = (jobs: readonly { id: number }[]) => jobs.map((j) => j.id);

/** An order job created: the job done with the order's id and the order mirrored, in one transaction. */
const created = (store: Store, jobId: number, orderId: string) =>
  store.transaction(() => {
    store.jobs.settle(jobId, ['sending', 'in_doubt'], {
      to: 'done',
      error: null,
      resultId: orderId,
    });
    store.orders.insertCreated(appOrder(orderId));
  });

describe('BatchesRepo', () => {
  it('insertBatch: a running batch of queued order jobs, one per request, in order', () => {
    const store = memoryStore();
    const batch = batchOf(store, 3, 4);
    expect(batch).toMatchObject({
      state: 'running',
      concurrency: 4,
      total: 3,
      createdAt: store.clock.now(),
      finishedAt: null,
    });
    const items = store.batches.items(batch.id);
    expect(
      items.map((i) => [i.seq, i.protocolLocalId, i.state, i.request.customer.sourceId]),
    ).toEqual([
      [0, 'p-0', 'queued', 's-0'],
      [1, 'p-1', 'queued', 's-1'],
      [2, 'p-2', 'queued', 's-2'],
    ]);
    expect(items[0]).toMatchObject({
      batchId: batch.id,
      orderId: null,
      error: null,
      attempts: 0,
      sentAt: null,
    });
    expect(items[1]!.request).toEqual(orderRequest('s-1'));
    expect(store.jobs.get(items[2]!.jobId)).toMatchObject({
      kind: 'order',
      state: 'queued',
      batchId: batch.id,
      batchSeq: 2,
      queueKey: null,
    });
    expect(store.batches.progress(batch.id)).toEqual({
      total: 3,
      queued: 3,
      sending: 0,
      inDoubt: 0,
      created: 0,
      rejected: 0,
      held: 0,
      possibleDuplicates: 0,
      repeatsCancelled: 0,
    });
    store.clock.advance(1_000);
    const later = batchOf(store, 1);
    expect(store.batches.list().map((b) => b.id)).toEqual([later.id, batch.id]);
  });

  it('insertBatch is all or nothing', () => {
    const store = memoryStore();
    expect(() => store.batches.insertBatch([], { concurrency: 2 })).toThrow(StoreError);
    store.db.exec(
      "CREATE TRIGGER full_disk BEFORE INSERT ON jobs WHEN new.batch_seq = 2 BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    );
    expect(() => batchOf(store, 3)).toThrow(/disk full/);
    expect(store.batches.list()).toEqual([]);
    expect(jobCount(store)).toBe(0);
    store.db.exec('DROP TRIGGER full_disk');
    // inside the caller's transaction: undone with it
    expect(() =>
      store.transaction(() => {
        batchOf(store, 2);
        throw new Error('a protocol changed meanwhile');
      }),
    ).toThrow(/changed meanwhile/);
    expect(store.batches.list()).toEqual([]);
    expect(jobCount(store)).toBe(0);
  });

  it('setState pauses and resumes a batch; a done batch stays done; an unknown one is not found', () => {
    const store = memoryStore();
    expect(store.batches.anyRunning()).toBe(false);
    const batch = batchOf(store, 1, 1);
    expect(store.batches.anyRunning()).toBe(true);
    expect(store.batches.setState(batch.id, 'paused').state).toBe('paused');
    // A paused batch sends nothing: it does not count as running (updates may install).
    expect(store.batches.anyRunning()).toBe(false);
    expect(store.batches.setState(batch.id, 'running').state).toBe('running');
    expect(store.batches.anyRunning()).toBe(true);
    const [item] = store.batches.items(batch.id);
    claim(store);
    store.jobs.settle(item!.jobId, ['sending'], { to: 'rejected', error: discontinued });
    expect(store.batches.finishIfComplete(batch.id)).toBe(true);
    expect(store.batches.anyRunning()).toBe(false);
    expect(store.batches.setState(batch.id, 'running').state).toBe('done');
    expect(() => store.batches.setState('nope', 'paused')).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );
  });

  it('items and progress follow the jobs; the batch is done once each is done or rejected', () => {
    const store = memoryStore();
    const batch = batchOf(store, 4, 3);
    const jobs = store.batches.items(batch.id).map((i) => i.jobId);
    expect(claim(store)).toHaveLength(3);
    store.jobs.settle(jobs[0]!, ['sending'], { to: 'rejected', error: discontinued });
    store.jobs.settle(jobs[1]!, ['sending'], {
      to: 'in_doubt',
      error: { kind: 'transport', message: 'socket hang up' },
    });
    created(store, jobs[2]!, 'ord_c');
    expect(store.batches.items(batch.id).map((i) => [i.state, i.orderId, i.error])).toEqual([
      ['rejected', null, discontinued],
      ['in_doubt', null, { kind: 'transport', message: 'socket hang up' }],
      ['done', 'ord_c', null],
      ['queued', null, null],
    ]);
    expect(store.batches.items(batch.id)[2]).toMatchObject({
      attempts: 1,
      sentAt: store.clock.now(),
    });
    expect(store.batches.progress(batch.id)).toEqual({
      total: 4,
      queued: 1,
      sending: 0,
      inDoubt: 1,
      created: 1,
      rejected: 1,
      held: 0,
      possibleDuplicates: 0,
      repeatsCancelled: 0,
    });
    expect(store.batches.finishIfComplete(batch.id)).toBe(false);
    created(store, jobs[1]!, 'ord_b'); // reconciliation found it
    expect(ids(claim(store))).toEqual([jobs[3]]);
    created(store, jobs[3]!, 'ord_d');
    store.clock.advance(1_000);
    expect(store.batches.finishIfComplete(batch.id)).toBe(true);
    expect(store.batches.finishIfComplete(batch.id)).toBe(false); // announced once
    expect(store.batches.get(batch.id)).toMatchObject({
      state: 'done',
      finishedAt: store.clock.now(),
    });
    expect(store.batches.progress(batch.id)).toMatchObject({ created: 3, rejected: 1 });
  });
});

describe('JobsRepo', () => {
  it('enqueue: a queued job with its data, due at once or at nextAttemptAt', () => {
    const store = memoryStore();
    const now = store.clock.now();
    const id = store.jobs.enqueue({
      kind: 'protocol',
      data: { any: ['json'] },
      queueKey: 'protocol:p',
      nextAttemptAt: now + 500,
    });
    expect(store.jobs.get(id)).toEqual({
      id,
      kind: 'protocol',
      queueKey: 'protocol:p',
      state: 'queued',
      data: { any: ['json'] },
      batchId: null,
      batchSeq: null,
      attempts: 0,
      sentAt: null,
      sentServerAt: null,
      firstSentServerAt: null,
      nextAttemptAt: now + 500,
      error: null,
      resultId: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(store.jobs.live('protocol:p')?.id).toBe(id);
    expect(store.jobs.get(id + 1)).toBeNull();
  });

  it('claimDue: the due queued jobs of the kind, oldest first, marked sending with the attempt', () => {
    const store = memoryStore();
    const now = store.clock.now();
    const later = store.jobs.enqueue({ kind: 'order', data: {}, nextAttemptAt: now + 5_000 });
    const first = store.jobs.enqueue({ kind: 'order', data: {} });
    const second = store.jobs.enqueue({ kind: 'order', data: {} });
    store.jobs.enqueue({ kind: 'protocol', data: {} });
    const claimed = claim(store, now);
    expect(ids(claimed)).toEqual([first, second]); // later is not due; the protocol job is another kind
    expect(claimed[0]).toMatchObject({
      state: 'sending',
      attempts: 1,
      sentAt: now,
      updatedAt: now,
    });
    expect(store.jobs.get(first)?.state).toBe('sending');
    expect(claim(store, now)).toEqual([]);
    expect(claim(store, now + 5_000)).toMatchObject([{ id: later, sentAt: now + 5_000 }]);
    store.jobs.settle(first, ['sending'], {
      to: 'queued',
      error: { kind: 'transport', message: '503' },
      nextAttemptAt: now + 9_000,
    });
    expect(claim(store, now + 8_999)).toEqual([]);
    expect(claim(store, now + 9_000)).toMatchObject([{ id: first, attempts: 2 }]);
  });

  it("claimDue keeps the server's time of each claim, and of the first", () => {
    const store = memoryStore();
    const now = store.clock.now();
    const id = store.jobs.enqueue({ kind: 'order', data: {} });
    const claimOnce = (serverNow: number | null) =>
      store.transaction(() => store.jobs.claimDue('order', now, 4, serverNow));
    expect(claimOnce(null)).toMatchObject([{ id, sentServerAt: null, firstSentServerAt: null }]);
    const again = () =>
      store.jobs.settle(id, ['sending'], { to: 'queued', error: null, nextAttemptAt: null });
    again();
    expect(claimOnce(1_000)).toMatchObject([{ sentServerAt: 1_000, firstSentServerAt: 1_000 }]);
    again();
    expect(claimOnce(2_000)).toMatchObject([{ sentServerAt: 2_000, firstSentServerAt: 1_000 }]);
  });

  it('claimDue: nothing of a paused batch, and no more than its concurrency in flight', () => {
    const store = memoryStore();
    const batch = batchOf(store, 4, 2);
    const jobs = store.batches.items(batch.id).map((i) => i.jobId);
    expect(ids(claim(store))).toEqual([jobs[0], jobs[1]]);
    expect(claim(store)).toEqual([]);
    // an in-doubt job frees its place
    store.jobs.settle(jobs[0]!, ['sending'], {
      to: 'in_doubt',
      error: { kind: 'transport', message: '?' },
    });
    store.batches.setState(batch.id, 'paused');
    expect(claim(store)).toEqual([]);
    expect(store.jobs.claimInLane('order', batch.id, store.clock.now(), 1)).toEqual([]);
    store.batches.setState(batch.id, 'running');
    expect(ids(claim(store))).toEqual([jobs[2]]);
    expect(claim(store)).toEqual([]);
  });

  it("claimDue: batches oldest first, each to its concurrency, then jobs outside batches to the kind's, apart from other kinds", () => {
    const store = memoryStore();
    const older = batchOf(store, 3, 2);
    store.clock.advance(1);
    const newer = batchOf(store, 2, 1);
    const loose = [1, 2, 3].map(() => store.jobs.enqueue({ kind: 'order', data: {} }));
    store.jobs.enqueue({ kind: 'protocol', data: {} });
    expect(
      store.transaction(() => store.jobs.claimDue('protocol', store.clock.now(), 1)),
    ).toHaveLength(1);
    const [o, n] = [older, newer].map((b) => store.batches.items(b.id).map((i) => i.jobId));
    expect(ids(claim(store, undefined, 2))).toEqual([o![0], o![1], n![0], loose[0], loose[1]]);
    expect(claim(store, undefined, 2)).toEqual([]);
    expect(store.jobs.counts({ batchId: older.id }).sending).toBe(2);
    expect(store.jobs.counts({ kind: 'order' }).sending).toBe(5);
    // the place one job frees, claimed in its lane
    store.jobs.settle(loose[0]!, ['sending'], { to: 'done', error: null });
    expect(ids(store.jobs.claimInLane('order', null, store.clock.now(), 1))).toEqual([loose[2]]);
  });

  it('one live job per queue key; the claim never takes a job behind a live one of its key', () => {
    const store = memoryStore();
    const a = store.jobs.enqueue({ kind: 'protocol', data: { n: 'a' }, queueKey: 'k' });
    expect(() => store.jobs.enqueue({ kind: 'protocol', data: {}, queueKey: 'k' })).toThrow(
      /UNIQUE/,
    );
    const claimProtocol = () =>
      store
        .transaction(() => store.jobs.claimDue('protocol', store.clock.now(), 4))
        .map((j) => j.id);
    // without the index (a row written by hand), the claim still keeps the key's order
    store.db.exec('DROP INDEX jobs_one_live_per_key');
    const b = store.jobs.enqueue({ kind: 'protocol', data: { n: 'b' }, queueKey: 'k' });
    const other = store.jobs.enqueue({ kind: 'protocol', data: {}, queueKey: 'm' });
    expect(claimProtocol()).toEqual([a, other]); // not b, behind a
    expect(claimProtocol()).toEqual([]);
    for (const [from, to] of [
      ['sending', 'in_doubt'],
      ['in_doubt', 'rejected'],
      ['rejected', 'queued'],
    ] as const) {
      store.jobs.settle(a, [from], { to, error: null });
      if (to !== 'queued') expect(claimProtocol()).toEqual([]);
    }
    expect(claimProtocol()).toEqual([a]);
    store.jobs.settle(a, ['sending'], { to: 'done', error: null });
    expect(claimProtocol()).toEqual([b]);
  });

  it('settle refuses a job that is not in a state it moves from; it keeps the result id', () => {
    const store = memoryStore();
    const id = store.jobs.enqueue({ kind: 'order', data: {} });
    claim(store);
    store.clock.advance(50);
    store.jobs.settle(id, ['sending'], {
      to: 'in_doubt',
      error: { kind: 'transport', message: 'timeout' },
    });
    expect(store.jobs.get(id)).toMatchObject({
      state: 'in_doubt',
      error: { kind: 'transport', message: 'timeout' },
      updatedAt: store.clock.now(),
    });
    let refused: unknown;
    try {
      store.jobs.settle(id, ['sending'], { to: 'done', error: null, resultId: 'ord_1' });
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(StoreError);
    expect(refused).toMatchObject({
      code: 'invalid-state',
      message: `Job ${id} is in_doubt, not sending.`,
    });
    expect(store.jobs.get(id)?.state).toBe('in_doubt');
    expect(() => store.jobs.settle(id + 1, ['sending'], { to: 'done', error: null })).toThrow(
      expect.objectContaining({ code: 'not-found' }),
    );

    store.jobs.settle(id, ['sending', 'in_doubt'], { to: 'done', error: null, resultId: 'ord_1' });
    store.jobs.settle(id, ['done'], { to: 'done', error: null });
    expect(store.jobs.get(id)).toMatchObject({ state: 'done', resultId: 'ord_1', error: null });
  });

  it('one server order per job: the UNIQUE result_id of order jobs rolls back the mirror written with it', () => {
    const store = memoryStore();
    const batch = batchOf(store, 2, 2);
    const [first, second] = store.batches.items(batch.id).map((i) => i.jobId);
    expect(claim(store)).toHaveLength(2);
    created(store, first!, 'ord_1');
    expect(store.orders.get('ord_1')?.id).toBe('ord_1');
    expect(store.db.prepare('SELECT source FROM orders WHERE id = ?').get('ord_1')).toEqual({
      source: 'created',
    });
    expect(() =>
      store.transaction(() => {
        store.jobs.settle(second!, ['sending'], { to: 'done', error: null, resultId: 'ord_1' });
        store.orders.insertCreated(appOrder('ord_1', { updatedAt: '2025-03-01T11:00:00Z' }));
      }),
    ).toThrow(/UNIQUE/);
    expect(store.jobs.get(second!)).toMatchObject({ state: 'sending', resultId: null });
    expect(store.orders.get('ord_1')?.updatedAt).toBe('2025-03-01T10:00:00Z');
    // protocol jobs may name the same server protocol again and again
    for (let i = 0; i < 2; i++) {
      const id = store.jobs.enqueue({ kind: 'protocol', data: {}, queueKey: 'protocol:p' });
      store.jobs.settle(id, ['queued'], { to: 'done', error: null, resultId: 'prt_1' });
    }
  });

  it('markOrphansInDoubt: after a crash, every job being sent is in doubt, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-crash-'));
    try {
      const file = join(dir, 'store.db');
      const clock = manualClock();
      const before = Object.assign(createLocalStore(file, { key: TEST_KEY, clock }), { clock });
      const batch = batchOf(before, 4, 3);
      const jobs = before.batches.items(batch.id).map((i) => i.jobId);
      const loose = before.jobs.enqueue({ kind: 'protocol', data: {} });
      expect(claim(before)).toHaveLength(3);
      before.transaction(() => before.jobs.claimDue('protocol', clock.now(), 1));
      created(before, jobs[0]!, 'ord_0');
      before.db.close(); // the process dies here

      const after = createLocalStore(file, { key: TEST_KEY, clock });
      expect(after.jobs.markOrphansInDoubt()).toBe(3);
      expect(after.batches.items(batch.id).map((i) => i.state)).toEqual([
        'done',
        'in_doubt',
        'in_doubt',
        'queued',
      ]);
      expect(after.jobs.get(loose)?.state).toBe('in_doubt');
      expect(after.jobs.markOrphansInDoubt()).toBe(0);
      expect(ids(after.jobs.inDoubt('order', clock.now(), 10))).toEqual([jobs[1], jobs[2]]);
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts by state, of a batch (all its jobs) or of a kind (those not done)', () => {
    const store = memoryStore();
    const batch = batchOf(store, 3, 2);
    const jobs = store.batches.items(batch.id).map((i) => i.jobId);
    store.jobs.enqueue({ kind: 'protocol', data: {} });
    expect(claim(store)).toHaveLength(2);
    store.jobs.enqueue({ kind: 'order', data: {} });
    created(store, jobs[0]!, 'ord_0');
    expect(store.jobs.counts({ batchId: batch.id })).toEqual({
      queued: 1,
      sending: 1,
      in_doubt: 0,
      done: 1,
      rejected: 0,
    });
    expect(store.jobs.counts({ kind: 'order' })).toEqual({
      queued: 2,
      sending: 1,
      in_doubt: 0,
      done: 0,
      rejected: 0,
    });
    expect(store.jobs.counts({ kind: 'protocol' })).toMatchObject({ queued: 1 });
  });

  it('keeps the name a batch was given (none: null) and totals the orders still standing as the server priced them, cancelled and refused apart', () => {
    const store = memoryStore();
    const named = store.batches.insertBatch(
      [{ protocolLocalId: 'p-a', request: orderRequest('s-a') }],
      { concurrency: 1, name: 'November refills' },
    );
    expect(store.batches.get(named.id)).toMatchObject({ name: 'November refills' });
    const batch = batchOf(store, 3, 3);
    expect(batch.name).toBeNull();
    const none = { orders: 0, amount: '0.00' };
    expect(store.batches.outcome(batch.id)).toEqual({
      standing: none,
      cancelled: none,
      refused: 0,
    });
    const jobs = store.batches.items(batch.id).map((i) => i.jobId);
    claim(store);
    store.transaction(() => {
      store.jobs.settle(jobs[0]!, ['sending'], { to: 'done', error: null, resultId: 'ord_x' });
      store.orders.insertCreated(appOrder('ord_x', { totalPrice: '26.35' }));
    });
    store.transaction(() => {
      store.jobs.settle(jobs[1]!, ['sending'], { to: 'done', error: null, resultId: 'ord_y' });
      store.orders.insertCreated(appOrder('ord_y', { totalPrice: '10.10' }));
    });
    store.jobs.settle(jobs[2]!, ['sending'], { to: 'rejected', error: discontinued });
    // Only the created orders count; another batch's are not this one's.
    expect(store.batches.outcome(batch.id)).toEqual({
      standing: { orders: 2, amount: '36.45' },
      cancelled: none,
      refused: 1,
    });
    expect(store.batches.outcome(named.id)).toEqual({
      standing: none,
      cancelled: none,
      refused: 0,
    });
    // The poller learns that ord_x was cancelled: it leaves the total, counted apart.
    store.orders.upsert(appOrder('ord_x', { totalPrice: '26.35', status: 'CANCELLED' }), {
      source: 'pulled',
    });
    expect(store.batches.outcome(batch.id)).toEqual({
      standing: { orders: 1, amount: '10.10' },
      cancelled: { orders: 1, amount: '26.35' },
      refused: 1,
    });
    expect(store.batches.items(batch.id).map((i) => i.orderStatus)).toEqual([
      'CANCELLED',
      'NEW',
      null,
    ]);
  });
});
