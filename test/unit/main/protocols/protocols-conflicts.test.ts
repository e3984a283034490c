import { describe, expect, it } from 'vitest';
import { listConflicts, outboxCount, resolveConflict } from '@main/protocols/conflicts';
import {
  claimChange,
  claimNext,
  conflicted as conflictedPush,
  inDoubt,
  liveJobs,
  type Store,
} from '@test/support/protocol-changes';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

const T1 = '2025-02-01T09:00:00Z';
const T2 = '2025-02-02T09:00:00Z';
const T3 = '2025-02-03T09:00:00Z';

function synced(store: Store, id = 'prt_1') {
  return mirrorProtocol(store, serverProtocol(id, T1)).localId;
}

describe('conflicts and their resolution primitives', () => {
  /** A synced protocol edited here, whose update found it edited on the server. */
  function conflicted(store: Store) {
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    conflictedPush(
      store,
      job,
      'edited-on-server',
      serverProtocol('prt_1', T2, protocolRequest({ lastName: 'Theirs' })),
    );
    return { localId, job };
  }

  it('markConflict records it and stops the change, rejected with the conflict; edits keep it stopped', () => {
    const store = memoryStore();
    const { localId, job } = conflicted(store);
    const stopped = {
      jobId: job.id,
      op: 'update',
      state: 'rejected',
      error: { kind: 'conflict', conflict: 'edited-on-server' },
    };
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'edited-on-server', detectedAt: store.clock.now() },
      change: stopped,
    });
    expect(store.protocols.get(localId)?.conflict?.server?.customer.lastName).toBe('Theirs');
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine again' }));
    expect(store.protocols.get(localId)).toMatchObject({ syncState: 'conflict', change: stopped });
    expect(claimNext(store, store.clock.now() + 600_000)).toBeNull();
    expect(outboxCount(store)).toEqual({ pending: 0, inDoubt: 0, conflicts: 1 });
  });

  it('keep mine: rebased on the server copy, the update is queued again', () => {
    const store = memoryStore();
    const { localId, job } = conflicted(store);
    const theirs = store.protocols.get(localId)!.conflict!.server!;
    expect(store.protocols.rebaseOnServer(localId, theirs)).toBe('queued');
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'pending',
      conflict: null,
      baseUpdatedAt: T2,
      change: { jobId: job.id, op: 'update', state: 'queued', error: null },
    });
    expect(store.jobs.get(job.id)?.data).toMatchObject({ baseUpdatedAt: T2 });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Mine');
    expect(claimChange(store, localId).data.sent?.customer.lastName).toBe('Mine');
  });

  it('take theirs: the server copy becomes the draft, synced; the change is done with', () => {
    const store = memoryStore();
    const { localId, job } = conflicted(store);
    store.protocols.takeServer(localId, store.protocols.get(localId)!.conflict!.server!);
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      conflict: null,
      baseUpdatedAt: T2,
      change: null,
    });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Theirs');
    expect(store.jobs.get(job.id)?.state).toBe('done');
    expect(outboxCount(store)).toEqual({ pending: 0, inDoubt: 0, conflicts: 0 });
  });

  it('keep both: a new local protocol with mine, the original takes theirs, in one transaction', () => {
    const store = memoryStore();
    const { localId } = conflicted(store);
    const resolution = resolveConflict(store, localId, 'keep-both');
    expect(resolution.localId).toBe(localId);
    const copy = store.protocols.get(resolution.copyLocalId!)!;
    expect(copy).toMatchObject({ serverId: null, change: { op: 'create', state: 'queued' } });
    expect(copy.draft.customer.lastName).toBe('Mine');
    expect(store.protocols.get(localId)).toMatchObject({ syncState: 'synced', change: null });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Theirs');

    // one transaction: a failure half-way leaves the conflict as it was
    const other = memoryStore();
    const { localId: id2 } = conflicted(other);
    other.db.exec(
      "CREATE TRIGGER no_take BEFORE UPDATE OF sync_state ON protocols WHEN new.sync_state = 'synced' BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    );
    expect(() => resolveConflict(other, id2, 'keep-both')).toThrow(/disk full/);
    expect(other.protocols.count()).toBe(1);
    expect(other.protocols.get(id2)).toMatchObject({ syncState: 'conflict' });
  });

  it('resolveConflict: keep mine rebases on the newer of the recorded and the pulled server copy', () => {
    const store = memoryStore();
    const { localId } = conflicted(store);
    mirrorProtocol(store, serverProtocol('prt_1', T3, protocolRequest({ lastName: 'Newest' })));
    expect(listConflicts(store).map((c) => [c.localId, c.kind, c.theirs?.updatedAt])).toEqual([
      [localId, 'edited-on-server', T3],
    ]);
    expect(resolveConflict(store, localId, 'keep-mine')).toEqual({ localId, copyLocalId: null });
    expect(store.protocols.get(localId)).toMatchObject({
      baseUpdatedAt: T3,
      change: { op: 'update', state: 'queued' },
    });
    expect(() => resolveConflict(store, localId, 'keep-mine')).toThrow(/no conflict/);
  });

  it('deleted on server while edited: keep mine recreates it', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    expect(store.protocols.markDeletedOnServer('prt_1')).toBe('conflict');
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'deleted-on-server' },
      change: {
        op: 'update',
        state: 'rejected',
        error: { kind: 'conflict', conflict: 'deleted-on-server' },
      },
    });
    expect(store.protocols.get(localId)?.conflict?.server?.id).toBe('prt_1'); // the last known copy
    expect(store.protocols.detachFromServer(localId)).toBe('queued');
    expect(store.protocols.get(localId)).toMatchObject({
      serverId: null,
      server: null,
      baseUpdatedAt: null,
      syncState: 'pending',
      change: { op: 'create', state: 'queued', error: null },
    });
    expect(liveJobs(store)).toEqual([
      expect.objectContaining({ localId, op: 'create', baseUpdatedAt: null, state: 'queued' }),
    ]);
  });

  it('deleted on server while deleted here too: the protocol simply goes', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    store.protocols.markDeletedOnServer('prt_1');
    store.protocols.deleteDraft(localId);
    expect(resolveConflict(store, localId, 'keep-mine')).toEqual({
      localId: null,
      copyLocalId: null,
    });
    expect(store.protocols.get(localId)).toBeNull();
    expect(liveJobs(store)).toEqual([]);
  });

  it('deleted locally, edited on server: keep mine pushes the delete on the new base, take theirs restores it', () => {
    const store = memoryStore();
    const a = synced(store, 'prt_a');
    const b = synced(store, 'prt_b');
    for (const [id, serverId] of [
      [a, 'prt_a'],
      [b, 'prt_b'],
    ] as const) {
      store.protocols.deleteDraft(id);
      const job = claimChange(store, id);
      conflictedPush(store, job, 'deleted-locally-edited-on-server', serverProtocol(serverId, T3));
    }
    expect(listConflicts(store).find((c) => c.localId === a)?.choices).toEqual([
      'keep-mine',
      'take-theirs',
    ]);
    expect(() => resolveConflict(store, a, 'keep-both')).toThrow(/does not apply/);
    store.protocols.rebaseOnServer(a, serverProtocol('prt_a', T3));
    expect(store.protocols.get(a)?.change).toMatchObject({ op: 'delete', state: 'queued' });
    expect(liveJobs(store)).toContainEqual(
      expect.objectContaining({ localId: a, op: 'delete', baseUpdatedAt: T3, state: 'queued' }),
    );
    store.protocols.takeServer(b, serverProtocol('prt_b', T3));
    expect(store.protocols.get(b)).toMatchObject({
      deleted: false,
      syncState: 'synced',
      change: null,
      baseUpdatedAt: T3,
    });
  });

  it('resolutions refuse a protocol whose change is in flight or in doubt', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const job = claimChange(store, localId);
    for (const state of ['sending', 'in_doubt']) {
      expect(store.jobs.get(job.id)?.state).toBe(state);
      expect(() => store.protocols.takeServer(localId, serverProtocol('prt_1', T2))).toThrow(
        /in flight/,
      );
      expect(() => store.protocols.rebaseOnServer(localId, serverProtocol('prt_1', T2))).toThrow(
        /in flight/,
      );
      expect(() => store.protocols.detachFromServer(localId)).toThrow(/in flight/);
      expect(store.protocols.markDeletedOnServer('prt_1')).toBe('in-flight');
      if (state === 'sending') inDoubt(store, job);
    }
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Mine');
  });
});

describe('the mirror pull', () => {
  it('inserts new protocols, refreshes synced ones, and keeps drafts with local changes', () => {
    const store = memoryStore();
    expect(mirrorProtocol(store, serverProtocol('prt_1', T1)).change).toBe('inserted');
    expect(mirrorProtocol(store, serverProtocol('prt_1', T1)).change).toBe('unchanged');
    const { localId, change } = mirrorProtocol(
      store,
      serverProtocol('prt_1', T2, protocolRequest({ lastName: 'Server' })),
    );
    expect(change).toBe('refreshed');
    expect(store.protocols.get(localId)).toMatchObject({
      baseUpdatedAt: T2,
      customerName: 'Ada Server',
      syncState: 'synced',
    });
    expect(store.protocols.search('server').map((p) => p.localId)).toEqual([localId]);

    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Local' }));
    expect(
      mirrorProtocol(store, serverProtocol('prt_1', T3, protocolRequest({ lastName: 'Newer' })))
        .change,
    ).toBe('server-updated');
    const p = store.protocols.get(localId)!;
    expect(p.draft.customer.lastName).toBe('Local');
    expect(p.baseUpdatedAt).toBe(T2);
    expect(p.server?.customer.lastName).toBe('Newer');
  });

  it('a server copy with null days supply, shipping and order type is stored as a draft', () => {
    const store = memoryStore();
    const server = {
      ...serverProtocol('prt_sub', T1),
      daysSupply: null,
      shippingMethod: null,
      orderType: null,
    };
    const { localId } = mirrorProtocol(store, server);
    expect(store.protocols.get(localId)?.draft).toMatchObject({
      daysSupply: null,
      shippingMethod: null,
      orderType: null,
    });
  });

  it('removes protocols deleted on the server unless edited locally', () => {
    const store = memoryStore();
    const kept = synced(store, 'prt_keep');
    synced(store, 'prt_gone');
    const both = synced(store, 'prt_both');
    store.protocols.deleteDraft(both);
    expect(store.protocols.markDeletedOnServer('prt_gone')).toBe('removed');
    expect(store.protocols.markDeletedOnServer('prt_both')).toBe('removed');
    expect(store.protocols.markDeletedOnServer('prt_never')).toBe('unknown');
    expect(store.protocols.serverIds()).toEqual(['prt_keep']);
    expect(store.protocols.get(kept)).not.toBeNull();
    expect(liveJobs(store)).toEqual([]);
  });
});
