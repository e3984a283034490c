import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStore, type LocalStore } from '../../../src/main/store';
import { StoreWorkerLostError } from '../../../src/main/store/store-worker';
import {
  CLAIM_AHEAD,
  CLAIM_LOW_WATER,
  RECORD_DELAY_MS,
  RunLedger,
  type UnrecordedItem,
} from '../../../src/main/sync/bulk-commit';
import type { Timers } from '../../../src/main/timers';
import { waitFor } from '../../support/wait';
import { appOrder, batchOf, manualClock, memoryStore, orderRequest } from '../store/fixtures';

/** Timers the test fires by hand. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let next = 1;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(next, { fn, ms });
      return next++;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  const fireAll = () => {
    const due = [...pending.values()];
    pending.clear();
    for (const t of due) t.fn();
  };
  return { timers, pending, fireAll };
}

function setup(items: number, options: { frozen?: boolean; store?: LocalStore } = {}) {
  const store = options.store ?? memoryStore();
  const clock = manualClock();
  const requests = Array.from({ length: items }, (_, i) => orderRequest(`s-${i}`));
  const batch = batchOf(store, items, 4);
  const { timers, pending, fireAll } = manualTimers();
  const unrecorded: UnrecordedItem[] = [];
  let recordedCalls = 0;
  let claimedCalls = 0;
  let lostCalls = 0;
  const logged: string[] = [];
  const frozen = new Map(options.frozen === false ? [] : requests.map((r, seq) => [seq, r]));
  const ledger = new RunLedger({
    store,
    clock,
    timers,
    batchId: batch.id,
    frozen,
    recorded: () => recordedCalls++,
    unrecorded: (failed) => unrecorded.push(...failed),
    claimed: () => claimedCalls++,
    claimsLost: () => lostCalls++,
    log: (line) => logged.push(line),
  });
  const states = () => store.batches.items(batch.id).map((i) => i.state);
  return {
    store,
    batch,
    ledger,
    frozen,
    requests,
    pending,
    fireAll,
    unrecorded,
    states,
    recorded: () => recordedCalls,
    claimed: () => claimedCalls,
    lost: () => lostCalls,
    logged,
  };
}

describe('RunLedger', () => {
  it('claims up to CLAIM_AHEAD items in one commit before handing out the first', () => {
    const t = setup(CLAIM_AHEAD + 3);
    const first = t.ledger.take()!;
    expect(first).toEqual({ batchId: t.batch.id, seq: 0, attempts: 1, request: t.requests[0] });
    // Every claimed item is durably 'sending' (sent_at written) before any is sent.
    expect(t.store.batches.progress(t.batch.id)).toMatchObject({ sending: CLAIM_AHEAD, queued: 3 });
    expect(t.ledger.claimedAhead).toBe(CLAIM_AHEAD - 1);
    for (let i = 1; i < CLAIM_AHEAD; i++) expect(t.ledger.take()!.seq).toBe(i);
    expect(t.ledger.take()!.seq).toBe(CLAIM_AHEAD); // the next claim
    expect(t.store.batches.progress(t.batch.id)).toMatchObject({
      sending: CLAIM_AHEAD + 3,
      queued: 0,
    });
  });

  it('reads the requests from the store when this process did not freeze them (after a restart)', () => {
    const t = setup(2, { frozen: false });
    expect(t.ledger.take()).toMatchObject({ seq: 0, request: t.requests[0] });
    expect(t.ledger.take()).toMatchObject({ seq: 1, request: t.requests[1] });
    expect(t.ledger.take()).toBeNull();
  });

  it('records created orders after RECORD_DELAY_MS, or at once when a group is full, or with the next claim', () => {
    const t = setup(CLAIM_AHEAD * 3);
    const a = t.ledger.take()!;
    t.ledger.created(a, appOrder('ord_a'));
    expect(t.states()[0]).toBe('sending'); // not yet recorded
    expect([...t.pending.values()].map((p) => p.ms)).toEqual([RECORD_DELAY_MS]);
    t.fireAll();
    expect(t.states()[0]).toBe('created');
    expect(t.store.orders.get('ord_a')).not.toBeNull();
    expect(t.frozen.has(0)).toBe(false); // a recorded item's request is let go
    expect(t.recorded()).toBe(1);

    // A full group commits at once.
    const items = Array.from({ length: CLAIM_AHEAD - 1 }, () => t.ledger.take()!);
    const next = t.ledger.take()!; // the next claim, with nothing waiting to be recorded
    items.push(next);
    items.forEach((item, i) => t.ledger.created(item, appOrder(`ord_g${i}`)));
    expect(t.ledger.unrecordedCount).toBe(0);
    expect(t.pending.size).toBe(0); // the timer of the group was cleared
    expect(t.store.batches.progress(t.batch.id).created).toBe(CLAIM_AHEAD + 1);
    // The group's commit also topped the claimed items up (one claimed here), in that commit.
    expect(t.ledger.claimedAhead).toBe(CLAIM_AHEAD);
    expect(t.store.batches.progress(t.batch.id).sending).toBe(CLAIM_AHEAD);

    // With claimed items used up, take() records what waits in the claim's commit.
    const more = Array.from({ length: CLAIM_AHEAD }, () => t.ledger.take()!);
    t.ledger.created(more[0]!, appOrder('ord_m0'));
    while (t.ledger.claimedAhead > 0) t.ledger.take();
    expect(t.ledger.unrecordedCount).toBe(1);
    t.ledger.take();
    expect(t.ledger.unrecordedCount).toBe(0);
    expect(t.store.batches.item(t.batch.id, more[0]!.seq)).toMatchObject({
      state: 'created',
      orderId: 'ord_m0',
    });
  });

  it('flush() records at once; release() returns unsent claims to the queue, uncounted', async () => {
    const t = setup(5);
    const sent = t.ledger.take()!;
    t.ledger.created(sent, appOrder('ord_0'));
    await t.ledger.flush();
    await t.ledger.release();
    expect(t.states()).toEqual(['created', 'queued', 'queued', 'queued', 'queued']);
    expect(t.store.batches.items(t.batch.id).map((i) => i.attempts)).toEqual([1, 0, 0, 0, 0]);
    expect(t.ledger.claimedAhead).toBe(0);
  });

  it('isolates a refused record: the others of its group are recorded, it is reported', async () => {
    const t = setup(4);
    const [a, b, c] = [t.ledger.take()!, t.ledger.take()!, t.ledger.take()!];
    t.ledger.created(a, appOrder('ord_a'));
    t.ledger.created(b, appOrder('ord_a')); // the same order for two items: refused
    t.ledger.created(c, appOrder('ord_c'));
    await t.ledger.flush();
    expect(t.states().slice(0, 3)).toEqual(['created', 'sending', 'created']);
    expect(t.unrecorded.map((u) => u.item.seq)).toEqual([1]);
    expect(String(t.unrecorded[0]!.error)).toMatch(/already the order of another batch item/);
    expect(t.frozen.has(1)).toBe(true); // kept: the item may be sent again after reconciliation
  });
});

describe('RunLedger with the store worker', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /** A store in a file, once its worker serves write plans. */
  async function fileStore(): Promise<LocalStore> {
    dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-ledger-'));
    const store = createLocalStore(path.join(dir, 'store.db'));
    await waitFor(() => store.writeOffThread(() => []), 5_000, 'the store worker never came up');
    return store;
  }

  it('claims the next items on the worker before the claimed ones run out', async () => {
    const store = await fileStore();
    const t = setup(CLAIM_AHEAD * 2, { store });
    expect(t.ledger.take()!.seq).toBe(0); // the first claim: on the main connection, at once
    expect(store.batches.progress(t.batch.id).sending).toBe(CLAIM_AHEAD);
    while (t.ledger.claimedAhead > CLAIM_LOW_WATER) t.ledger.take();
    // Down to CLAIM_LOW_WATER: the next claim is under way on the worker (which may already have
    // committed it: it runs beside this thread); its items come in only with its answer.
    expect(t.ledger.claimedAhead).toBe(CLAIM_LOW_WATER);
    expect(t.claimed()).toBe(0);
    await waitFor(() => t.claimed() > 0, 5_000, 'the claim never came in');
    expect(t.ledger.claimedAhead).toBe(CLAIM_AHEAD);
    expect(store.batches.progress(t.batch.id).sending).toBe(
      CLAIM_AHEAD + CLAIM_AHEAD - CLAIM_LOW_WATER,
    );
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => from + i);
    const takeAll = () => {
      const seqs: number[] = [];
      for (let item = t.ledger.take(); item; item = t.ledger.take()) seqs.push(item.seq);
      return seqs;
    };
    // Handed out in order; when none is left while the next claim is under way, take() says null
    // and the run is told once that claim came in.
    expect(takeAll()).toEqual(
      range(CLAIM_AHEAD - CLAIM_LOW_WATER, CLAIM_AHEAD + CLAIM_AHEAD - CLAIM_LOW_WATER),
    );
    await waitFor(() => t.claimed() > 1, 5_000, 'the last claim never came in');
    expect(takeAll()).toEqual(range(CLAIM_AHEAD + CLAIM_AHEAD - CLAIM_LOW_WATER, CLAIM_AHEAD * 2));
    store.close();
  });

  it('records a full group on the worker; flush() resolves once it is committed', async () => {
    const store = await fileStore();
    const t = setup(CLAIM_AHEAD, { store });
    const items = Array.from({ length: CLAIM_AHEAD }, () => t.ledger.take()!);
    items.forEach((item, i) => t.ledger.created(item, appOrder(`ord_${i}`)));
    expect(t.recorded()).toBe(0); // under way on the worker: recorded once its answer is in
    await t.ledger.flush();
    expect(t.states()).toEqual(Array(CLAIM_AHEAD).fill('created'));
    expect(store.orders.get('ord_31')).toMatchObject({ id: 'ord_31' });
    expect(t.frozen.size).toBe(0);
    expect(t.recorded()).toBe(1);
    store.close();
  });

  it('does again on the main connection what the worker refused: a refused record is isolated, a mirrored order merged', async () => {
    const store = await fileStore();
    const t = setup(4, { store });
    const [a, b, c, d] = [t.ledger.take()!, t.ledger.take()!, t.ledger.take()!, t.ledger.take()!];
    // Pulled already, and a step further than the create's answer (NEW, earlier updatedAt).
    store.orders.upsert(
      appOrder('ord_d', { status: 'PROCESSING', updatedAt: '2099-01-01T00:00:00.000Z' }),
      { source: 'pulled' },
    );
    t.ledger.created(a, appOrder('ord_a'));
    t.ledger.created(b, appOrder('ord_a')); // the same order for two items: refused
    t.ledger.created(c, appOrder('ord_c'));
    t.ledger.created(d, appOrder('ord_d')); // mirrored already (a pull was faster)
    await t.ledger.flush();
    expect(t.states()).toEqual(['created', 'sending', 'created', 'created']);
    expect(t.unrecorded.map((u) => u.item.seq)).toEqual([1]);
    expect(String(t.unrecorded[0]!.error)).toMatch(/already the order of another batch item/);
    expect(store.batches.item(t.batch.id, 3)).toMatchObject({ orderId: 'ord_d' });
    expect(store.orders.get('ord_d')?.status).toBe('PROCESSING'); // merged: not set back to NEW
    store.close();
  });

  it('when the answer of a commit is lost: writes its records again here and tells the run its claims may be lost', async () => {
    const real = await fileStore();
    // The worker commits, then its answer never comes (as when it stops after the commit).
    const store: LocalStore = {
      ...real,
      writeOffThread: (build) =>
        real.writeOffThread(build)?.then(() => {
          throw new StoreWorkerLostError('test: the answer was lost');
        }) ?? null,
    };
    const t = setup(CLAIM_AHEAD * 2, { store });
    const first = t.ledger.take()!;
    t.ledger.created(first, appOrder('ord_first'));
    while (t.ledger.claimedAhead > CLAIM_LOW_WATER) t.ledger.take(); // a claim goes to the worker
    await waitFor(() => t.lost() > 0, 5_000, 'the run was not told');
    await t.ledger.flush();
    expect(real.batches.item(t.batch.id, 0)).toMatchObject({
      state: 'created',
      orderId: 'ord_first',
    });
    // The lost claim did commit: its items are 'sending' though no one here holds them.
    expect(real.batches.progress(t.batch.id).sending).toBe(
      CLAIM_AHEAD - 1 + (CLAIM_AHEAD - CLAIM_LOW_WATER),
    );
    expect(t.ledger.claimedAhead).toBe(CLAIM_LOW_WATER);
    real.close();
  });

  it('commits here what it could not send to the worker', async () => {
    const real = await fileStore();
    const store: LocalStore = {
      ...real,
      writeOffThread: (build) => {
        build();
        throw new Error('test: the plan could not be sent');
      },
    };
    const t = setup(CLAIM_AHEAD * 2, { store });
    const items = Array.from({ length: CLAIM_AHEAD }, () => t.ledger.take()!);
    items.forEach((item, i) => t.ledger.created(item, appOrder(`ord_${i}`)));
    expect(t.ledger.unrecordedCount).toBe(0);
    expect(t.states().slice(0, CLAIM_AHEAD)).toEqual(Array(CLAIM_AHEAD).fill('created'));
    expect(t.unrecorded).toEqual([]);
    real.close();
  });

  it('logs, and does not throw, what goes wrong after a commit on the worker', async () => {
    const real = await fileStore();
    const store: LocalStore = {
      ...real,
      // The claim's answer does not read as claimed keys.
      writeOffThread: (build) => {
        build();
        return Promise.resolve([[{ seq: 'not a number', attempts: 1 }]]);
      },
    };
    const t = setup(CLAIM_AHEAD * 2, { store });
    t.ledger.take();
    while (t.ledger.claimedAhead > CLAIM_LOW_WATER) t.ledger.take();
    await waitFor(() => t.logged.length > 0, 5_000, 'nothing was logged');
    expect(t.logged[0]).toMatch(/a commit on the store worker: .*Corrupt row in batch_items/);
    real.close();
  });
});
