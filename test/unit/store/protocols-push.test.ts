import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/main/store';
import { memoryStore, protocolRequest, serverProtocol } from './fixtures';

const T1 = '2025-02-01T09:00:00Z';

describe('pushing the outbox', () => {
  it('a pushed create makes the protocol synced with the server id, copy and base', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry, protocol } = store.outbox.beginPush(p.outbox!.seq);
    expect(entry).toMatchObject({
      op: 'create',
      attempts: 1,
      sentAt: store.clock.now(),
      sentRev: p.rev,
    });
    expect(protocol.localId).toBe(p.localId);
    expect(store.outbox.pending()).toEqual([]); // in flight: not handed out again
    expect(() => store.outbox.beginPush(entry.seq)).toThrow(StoreError);

    expect(store.protocols.markPushed(entry, serverProtocol('prt_new', T1))).toBe('done');
    expect(store.protocols.get(p.localId)).toMatchObject({
      serverId: 'prt_new',
      baseUpdatedAt: T1,
      syncState: 'synced',
      outbox: null,
      conflict: null,
    });
    expect(store.outbox.get(entry.seq)).toMatchObject({ state: 'done', doneAt: store.clock.now() });
    expect(store.outbox.count()).toBe(0);
    expect(store.protocols.markPushed(entry, serverProtocol('prt_new', T1))).toBe('done'); // again: nothing
  });

  it('an edit made while the create was in flight is queued as an update based on the result', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    store.protocols.updateDraft(p.localId, protocolRequest({ lastName: 'Byron' }));
    expect(store.outbox.liveFor(p.localId)?.seq).toBe(entry.seq); // the in-flight entry is untouched

    expect(store.protocols.markPushed(entry, serverProtocol('prt_new', T1))).toBe('queued');
    const after = store.protocols.get(p.localId)!;
    expect(after).toMatchObject({ serverId: 'prt_new', syncState: 'pending', baseUpdatedAt: T1 });
    expect(after.draft.customer.lastName).toBe('Byron');
    expect(store.outbox.liveFor(p.localId)).toMatchObject({
      op: 'update',
      baseUpdatedAt: T1,
      state: 'pending',
    });
  });

  it('a delete made while the create was in flight follows it', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    expect(store.protocols.deleteDraft(p.localId)).toBe('deferred');
    expect(store.protocols.markPushed(entry, serverProtocol('prt_new', T1))).toBe('queued');
    expect(store.outbox.liveFor(p.localId)).toMatchObject({ op: 'delete', baseUpdatedAt: T1 });

    const del = store.outbox.beginPush(store.outbox.liveFor(p.localId)!.seq);
    expect(store.protocols.markPushed(del.entry, null)).toBe('dropped');
    expect(store.protocols.get(p.localId)).toBeNull();
    expect(store.outbox.count()).toBe(0);
  });

  it('a create that did not happen, deleted meanwhile, is dropped entirely', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    store.protocols.deleteDraft(p.localId);
    expect(store.outbox.markRetry(entry.seq, 'connection refused', null)).toBe('dropped');
    expect(store.protocols.get(p.localId)).toBeNull();
  });

  it('retry with backoff: not pending before it is due', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    const due = store.clock.now() + 30_000;
    expect(store.outbox.markRetry(entry.seq, '503 Service Unavailable', due)).toBe('queued');
    expect(store.outbox.get(entry.seq)).toMatchObject({
      state: 'pending',
      sentAt: null,
      lastError: '503 Service Unavailable',
      attempts: 1,
    });
    expect(store.outbox.pending(due - 1)).toEqual([]);
    expect(store.outbox.pending(due).map((e) => e.seq)).toEqual([entry.seq]);
    expect(store.outbox.pending().map((e) => e.seq)).toEqual([entry.seq]);
  });

  it('in doubt, and after a crash: a push in flight becomes in doubt and is handed out to reconcile', () => {
    const store = memoryStore();
    const a = store.protocols.createDraft(protocolRequest({ sourceId: 'a' }));
    const b = store.protocols.createDraft(protocolRequest({ sourceId: 'b' }));
    store.outbox.beginPush(a.outbox!.seq);
    const inFlightB = store.outbox.beginPush(b.outbox!.seq);
    store.outbox.markInDoubt(inFlightB.entry.seq, 'timeout');
    expect(store.outbox.pending().map((e) => [e.seq, e.state])).toEqual([
      [b.outbox!.seq, 'in_doubt'],
    ]);
    expect(store.outbox.recoverAfterCrash()).toBe(1);
    expect(store.outbox.pending().map((e) => [e.seq, e.state])).toEqual([
      [a.outbox!.seq, 'in_doubt'],
      [b.outbox!.seq, 'in_doubt'],
    ]);
    expect(store.outbox.counts()).toEqual({ pending: 0, inDoubt: 2, blocked: 0 });
    // reconciliation found a's create on the server
    expect(store.protocols.markPushed(a.outbox!.seq, serverProtocol('prt_a', T1))).toBe('done');
    expect(() => store.outbox.markInDoubt(a.outbox!.seq, 'x')).toThrow(StoreError);
  });

  it('a rejected push is blocked until the user edits the protocol', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    store.outbox.markRejected(entry.seq, 'lineItems.0.productId: product 1001 is DISCONTINUED');
    expect(store.outbox.get(entry.seq)).toMatchObject({ state: 'blocked', sentAt: null });
    expect(store.outbox.pending()).toEqual([]);
    expect(store.protocols.get(p.localId)?.outbox?.lastError).toMatch(/DISCONTINUED/);
    store.protocols.updateDraft(
      p.localId,
      protocolRequest(
        {},
        {
          lineItems: [
            {
              productId: 1002,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        },
      ),
    );
    expect(store.outbox.get(entry.seq)).toMatchObject({
      state: 'pending',
      lastError: null,
      op: 'create',
    });
  });

  it('a rejection of an older draft is retried at once when the draft changed in flight', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    store.protocols.updateDraft(p.localId, protocolRequest({ lastName: 'Fixed' }));
    store.outbox.markRejected(entry.seq, '422');
    expect(store.outbox.get(entry.seq)).toMatchObject({ state: 'pending', sentAt: null });
  });
});
