import { describe, expect, it } from 'vitest';
import {
  CLAIM_AHEAD,
  RECORD_DELAY_MS,
  RunLedger,
  type UnrecordedItem,
} from '../../../src/main/sync/bulk-commit';
import type { Timers } from '../../../src/main/sync/timers';
import { appOrder, batchOf, memoryStore, orderRequest } from '../store/fixtures';

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

function setup(items: number, options: { frozen?: boolean } = {}) {
  const store = memoryStore();
  const requests = Array.from({ length: items }, (_, i) => orderRequest(`s-${i}`));
  const batch = batchOf(store, items, 4);
  const { timers, pending, fireAll } = manualTimers();
  const unrecorded: UnrecordedItem[] = [];
  let recordedCalls = 0;
  const frozen = new Map(options.frozen === false ? [] : requests.map((r, seq) => [seq, r]));
  const ledger = new RunLedger({
    store,
    clock: store.clock,
    timers,
    batchId: batch.id,
    frozen,
    recorded: () => recordedCalls++,
    unrecorded: (failed) => unrecorded.push(...failed),
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

  it('flush() records at once; release() returns unsent claims to the queue, uncounted', () => {
    const t = setup(5);
    const sent = t.ledger.take()!;
    t.ledger.created(sent, appOrder('ord_0'));
    t.ledger.flush();
    t.ledger.release();
    expect(t.states()).toEqual(['created', 'queued', 'queued', 'queued', 'queued']);
    expect(t.store.batches.items(t.batch.id).map((i) => i.attempts)).toEqual([1, 0, 0, 0, 0]);
    expect(t.ledger.claimedAhead).toBe(0);
  });

  it('isolates a refused record: the others of its group are recorded, it is reported', () => {
    const t = setup(4);
    const [a, b, c] = [t.ledger.take()!, t.ledger.take()!, t.ledger.take()!];
    t.ledger.created(a, appOrder('ord_a'));
    t.ledger.created(b, appOrder('ord_a')); // the same order for two items: refused
    t.ledger.created(c, appOrder('ord_c'));
    t.ledger.flush();
    expect(t.states().slice(0, 3)).toEqual(['created', 'sending', 'created']);
    expect(t.unrecorded.map((u) => u.item.seq)).toEqual([1]);
    expect(String(t.unrecorded[0]!.error)).toMatch(/already the order of another batch item/);
    expect(t.frozen.has(1)).toBe(true); // kept: the item may be sent again after reconciliation
  });
});
