import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CreateOrderRequest } from '../../../src/shared/api';
import { createLocalStore, StoreError, type LocalProtocol } from '../../../src/main/store';
import { waitFor } from '../../support/wait';
import { appOrder, memoryStore, protocolRequest } from './fixtures';

const toRequest = (p: LocalProtocol): CreateOrderRequest => ({
  customer: { ...p.draft.customer, address: { ...p.draft.customer.address } },
  daysSupply: p.draft.daysSupply ?? 30,
  shippingMethod: p.draft.shippingMethod ?? 'STANDARD',
  orderType: p.draft.orderType ?? 'ONE_TIME',
  lineItems: p.draft.lineItems.map((li) => ({
    ...li,
    packDescription: li.administration ? '1 capsule' : undefined,
  })),
});

function drafts(store: ReturnType<typeof memoryStore>, n: number): string[] {
  return Array.from(
    { length: n },
    (_, i) => store.protocols.createDraft(protocolRequest({ sourceId: `p-${i}` })).localId,
  );
}

describe('BatchesRepo', () => {
  it('freezes one create request per protocol at batch creation', () => {
    const store = memoryStore();
    const ids = drafts(store, 3);
    const batch = store.batches.createBatch(ids, toRequest, { concurrency: 4 });
    expect(batch).toMatchObject({
      state: 'running',
      concurrency: 4,
      total: 3,
      createdAt: store.clock.now(),
      finishedAt: null,
    });
    store.protocols.updateDraft(ids[0]!, protocolRequest({ sourceId: 'changed-later' }));
    const items = store.batches.items(batch.id);
    expect(
      items.map((i) => [i.seq, i.protocolLocalId, i.state, i.request.customer.sourceId]),
    ).toEqual([
      [0, ids[0], 'queued', 'p-0'],
      [1, ids[1], 'queued', 'p-1'],
      [2, ids[2], 'queued', 'p-2'],
    ]);
    expect(store.batches.progress(batch.id)).toEqual({
      total: 3,
      queued: 3,
      sending: 0,
      inDoubt: 0,
      created: 0,
      rejected: 0,
    });
  });

  it('creates all or nothing', () => {
    const store = memoryStore();
    const ids = drafts(store, 3);
    let calls = 0;
    expect(() =>
      store.batches.createBatch(
        ids,
        (p) => {
          if (++calls === 3) throw new Error('cannot build');
          return toRequest(p);
        },
        { concurrency: 2 },
      ),
    ).toThrow('cannot build');
    expect(() =>
      store.batches.createBatch([ids[0]!, 'unknown'], toRequest, { concurrency: 2 }),
    ).toThrow(StoreError);
    expect(() =>
      store.batches.createBatch([ids[0]!, ids[0]!], toRequest, { concurrency: 2 }),
    ).toThrow(/twice/);
    expect(() =>
      store.batches.createBatch(ids, (p) => ({ ...toRequest(p), daysSupply: 45 as never }), {
        concurrency: 2,
      }),
    ).toThrow(/daysSupply/);
    expect(store.batches.list()).toEqual([]);
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM batch_items').get()).toEqual({ n: 0 });
  });

  it('claims items in order, each once, and none while paused or not yet due', () => {
    const store = memoryStore();
    const batch = store.batches.createBatch(drafts(store, 3), toRequest, { concurrency: 2 });
    const now = store.clock.now();
    const first = store.batches.claimNext(batch.id, now)!;
    expect(first).toMatchObject({ seq: 0, state: 'sending', attempts: 1, sentAt: now });
    store.batches.setState(batch.id, 'paused');
    expect(store.batches.claimNext(batch.id, now)).toBeNull();
    store.batches.setState(batch.id, 'running');
    expect(store.batches.claimNext(batch.id, now)?.seq).toBe(1);
    store.batches.requeue(batch.id, 0, {
      nextAttemptAt: now + 5_000,
      error: { kind: 'transport', message: 'ECONNREFUSED' },
    });
    expect(store.batches.claimNext(batch.id, now)?.seq).toBe(2);
    expect(store.batches.claimNext(batch.id, now)).toBeNull();
    expect(store.batches.nextAttemptAt(batch.id)).toBe(now + 5_000);
    const again = store.batches.claimNext(batch.id, now + 5_000)!;
    expect(again).toMatchObject({ seq: 0, attempts: 2, sentAt: now + 5_000 });
    expect(store.batches.claimNext(batch.id, now + 5_000)).toBeNull();
  });

  it('never hands the same item to two processes claiming from the same file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-claim-'));
    try {
      const file = join(dir, 'store.db');
      const store = createLocalStore(file);
      const ITEMS = 2000;
      const ids = Array.from(
        { length: ITEMS },
        (_, i) => store.protocols.createDraft(protocolRequest({ sourceId: `c-${i}` })).localId,
      );
      const batch = store.batches.createBatch(ids, toRequest, { concurrency: 8 });
      const child = fileURLToPath(new URL('./claim-child.ts', import.meta.url));
      const run = (name: string) =>
        new Promise<number[]>((resolve, reject) => {
          execFile(
            process.execPath,
            ['--import', 'tsx', child, file, batch.id, name],
            (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as number[])),
          );
        });
      const claims = Promise.all([run('a'), run('b')]);
      await waitFor(
        () => existsSync(`${file}.ready-a`) && existsSync(`${file}.ready-b`),
        15_000,
        'children ready',
      );
      writeFileSync(`${file}.go`, ''); // both start claiming at once
      const [a, b] = await claims;
      const all = [...a!, ...b!].sort((x, y) => x - y);
      expect(all).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
      expect(store.batches.progress(batch.id)).toMatchObject({ sending: ITEMS, queued: 0 });
      expect(store.batches.items(batch.id).every((i) => i.attempts === 1)).toBe(true);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('markCreated records the order id and mirrors the order in one transaction; an order is claimed once', () => {
    const store = memoryStore();
    const batch = store.batches.createBatch(drafts(store, 2), toRequest, { concurrency: 2 });
    const now = store.clock.now();
    store.batches.claimNext(batch.id, now);
    store.batches.claimNext(batch.id, now);
    const item = store.batches.markCreated(batch.id, 0, appOrder('ord_1'));
    expect(item).toMatchObject({ state: 'created', orderId: 'ord_1', error: null });
    expect(store.orders.get('ord_1')?.id).toBe('ord_1');
    expect(store.db.prepare('SELECT source FROM orders WHERE id = ?').get('ord_1')).toEqual({
      source: 'created',
    });
    expect(store.batches.markCreated(batch.id, 0, appOrder('ord_1')).orderId).toBe('ord_1'); // again: same answer

    expect(() =>
      store.batches.markCreated(
        batch.id,
        1,
        appOrder('ord_1', { updatedAt: '2025-03-01T11:00:00Z' }),
      ),
    ).toThrow(/already the order of another batch item/);
    expect(store.batches.item(batch.id, 1)).toMatchObject({ state: 'sending', orderId: null });
    expect(store.orders.get('ord_1')?.updatedAt).toBe('2025-03-01T10:00:00Z'); // the mirror write rolled back
  });

  it('rejected and in-doubt items; finishing the batch', () => {
    const store = memoryStore();
    const batch = store.batches.createBatch(drafts(store, 3), toRequest, { concurrency: 3 });
    const now = store.clock.now();
    for (let i = 0; i < 3; i++) store.batches.claimNext(batch.id, now);
    store.batches.markRejected(batch.id, 0, {
      kind: 'validation',
      issues: [
        { loc: ['body', 'lineItems', 0, 'productId'], type: 'invalid', msg: 'DISCONTINUED' },
      ],
    });
    store.batches.markInDoubt(batch.id, 1, { kind: 'transport', message: 'socket hang up' });
    expect(() =>
      store.batches.markInDoubt(batch.id, 0, { kind: 'transport', message: 'x' }),
    ).toThrow(StoreError);
    expect(store.batches.item(batch.id, 0)?.error).toEqual({
      kind: 'validation',
      issues: [
        { loc: ['body', 'lineItems', 0, 'productId'], type: 'invalid', msg: 'DISCONTINUED' },
      ],
    });
    expect(store.batches.itemsInState(batch.id, ['in_doubt', 'sending']).map((i) => i.seq)).toEqual(
      [1, 2],
    );
    expect(store.batches.finishIfComplete(batch.id)).toBe(false);
    store.batches.markCreated(batch.id, 1, appOrder('ord_b')); // reconciliation found it
    store.batches.markCreated(batch.id, 2, appOrder('ord_c'));
    expect(store.batches.progress(batch.id)).toEqual({
      total: 3,
      queued: 0,
      sending: 0,
      inDoubt: 0,
      created: 2,
      rejected: 1,
    });
    store.clock.advance(1000);
    expect(store.batches.finishIfComplete(batch.id)).toBe(true);
    expect(store.batches.get(batch.id)).toMatchObject({
      state: 'done',
      finishedAt: store.clock.now(),
    });
    expect(store.batches.unfinished()).toEqual([]);
    expect(store.batches.setState(batch.id, 'running').state).toBe('done');
  });

  it('recoverAfterCrash turns every item being sent into in doubt, and only those', () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-crash-'));
    try {
      const file = join(dir, 'store.db');
      const before = createLocalStore(file);
      const ids = Array.from(
        { length: 4 },
        (_, i) => before.protocols.createDraft(protocolRequest({ sourceId: `k-${i}` })).localId,
      );
      const batch = before.batches.createBatch(ids, toRequest, { concurrency: 2 });
      for (let i = 0; i < 3; i++) before.batches.claimNext(batch.id, 1);
      before.batches.markCreated(batch.id, 0, appOrder('ord_0'));
      before.db.close(); // the process dies here

      const after = createLocalStore(file);
      expect(after.batches.recoverAfterCrash()).toBe(2);
      expect(after.batches.items(batch.id).map((i) => i.state)).toEqual([
        'created',
        'in_doubt',
        'in_doubt',
        'queued',
      ]);
      expect(after.batches.unfinished().map((b) => b.id)).toEqual([batch.id]);
      expect(after.batches.recoverAfterCrash()).toBe(0);
      after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
