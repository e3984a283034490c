import { describe, expect, it } from 'vitest';
import { memoryStore, protocolRequest, serverProtocol } from './fixtures';

const T1 = '2025-02-01T09:00:00Z';
const T2 = '2025-02-02T09:00:00Z';
const T3 = '2025-02-03T09:00:00Z';

function synced(store: ReturnType<typeof memoryStore>, id = 'prt_1') {
  return store.protocols.upsertFromServer(serverProtocol(id, T1)).localId;
}

describe('conflicts and their resolution primitives', () => {
  function conflicted(store: ReturnType<typeof memoryStore>) {
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    const { entry } = store.outbox.beginPush(store.outbox.liveFor(localId)!.seq);
    store.protocols.markConflict(localId, {
      kind: 'edited-on-server',
      server: serverProtocol('prt_1', T2, protocolRequest({ lastName: 'Theirs' })),
    });
    return { localId, entry };
  }

  it('markConflict records it and blocks the entry; edits keep it blocked', () => {
    const store = memoryStore();
    const { localId, entry } = conflicted(store);
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'edited-on-server', detectedAt: store.clock.now() },
      outbox: { state: 'blocked', lastError: 'conflict: edited-on-server' },
    });
    expect(store.protocols.get(localId)?.conflict?.server?.customer.lastName).toBe('Theirs');
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine again' }));
    expect(store.outbox.get(entry.seq)?.state).toBe('blocked');
    expect(store.protocols.get(localId)?.syncState).toBe('conflict');
    expect(store.outbox.pending()).toEqual([]);
  });

  it('keep mine: rebased on the server copy, the update is pending again', () => {
    const store = memoryStore();
    const { localId, entry } = conflicted(store);
    const theirs = store.protocols.get(localId)!.conflict!.server!;
    expect(store.protocols.rebaseOnServer(localId, theirs)).toBe('queued');
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'pending',
      conflict: null,
      baseUpdatedAt: T2,
    });
    expect(store.outbox.get(entry.seq)).toMatchObject({
      op: 'update',
      state: 'pending',
      baseUpdatedAt: T2,
      lastError: null,
    });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Mine');
  });

  it('take theirs: the server copy becomes the draft, synced', () => {
    const store = memoryStore();
    const { localId, entry } = conflicted(store);
    store.protocols.takeServer(localId, store.protocols.get(localId)!.conflict!.server!);
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      conflict: null,
      baseUpdatedAt: T2,
      outbox: null,
    });
    expect(store.protocols.get(localId)?.draft.customer.lastName).toBe('Theirs');
    expect(store.outbox.get(entry.seq)?.state).toBe('done');
  });

  it('keep both: a new local protocol with mine, the original takes theirs, in one transaction', () => {
    const store = memoryStore();
    const { localId } = conflicted(store);
    const mine = store.protocols.get(localId)!;
    const copy = store.transaction(() => {
      const created = store.protocols.createDraft(mine.draft);
      store.protocols.takeServer(localId, mine.conflict!.server!);
      return created;
    });
    expect(store.protocols.get(copy.localId)).toMatchObject({
      serverId: null,
      outbox: { op: 'create' },
    });
    expect(store.protocols.get(copy.localId)?.draft.customer.lastName).toBe('Mine');
    expect(store.protocols.get(localId)?.syncState).toBe('synced');
  });

  it('deleted on server while edited: keep mine recreates it', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    expect(store.protocols.markDeletedOnServer('prt_1')).toBe('conflict');
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'deleted-on-server' },
    });
    expect(store.protocols.get(localId)?.conflict?.server?.id).toBe('prt_1'); // the last known copy
    expect(store.protocols.detachFromServer(localId)).toBe('queued');
    expect(store.protocols.get(localId)).toMatchObject({
      serverId: null,
      server: null,
      baseUpdatedAt: null,
      syncState: 'pending',
    });
    expect(store.outbox.liveFor(localId)).toMatchObject({
      op: 'create',
      state: 'pending',
      baseUpdatedAt: null,
    });
  });

  it('deleted locally, edited on server: keep mine pushes the delete on the new base, take theirs restores it', () => {
    const store = memoryStore();
    const a = synced(store, 'prt_a');
    const b = synced(store, 'prt_b');
    for (const id of [a, b]) {
      store.protocols.deleteDraft(id);
      const { entry } = store.outbox.beginPush(store.outbox.liveFor(id)!.seq);
      store.protocols.markConflict(id, {
        kind: 'deleted-locally-edited-on-server',
        server: serverProtocol(entry.protocolLocalId === a ? 'prt_a' : 'prt_b', T3),
      });
    }
    store.protocols.rebaseOnServer(a, serverProtocol('prt_a', T3));
    expect(store.outbox.liveFor(a)).toMatchObject({
      op: 'delete',
      baseUpdatedAt: T3,
      state: 'pending',
    });
    store.protocols.takeServer(b, serverProtocol('prt_b', T3));
    expect(store.protocols.get(b)).toMatchObject({
      deleted: false,
      syncState: 'synced',
      outbox: null,
      baseUpdatedAt: T3,
    });
  });

  it('resolutions refuse a protocol whose push is in flight', () => {
    const store = memoryStore();
    const localId = synced(store);
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Mine' }));
    store.outbox.beginPush(store.outbox.liveFor(localId)!.seq);
    expect(() => store.protocols.takeServer(localId, serverProtocol('prt_1', T2))).toThrow(
      /in flight/,
    );
    expect(store.protocols.markDeletedOnServer('prt_1')).toBe('in-flight');
  });
});

describe('the mirror pull', () => {
  it('inserts new protocols, refreshes synced ones, and keeps drafts with local changes', () => {
    const store = memoryStore();
    expect(store.protocols.upsertFromServer(serverProtocol('prt_1', T1)).change).toBe('inserted');
    expect(store.protocols.upsertFromServer(serverProtocol('prt_1', T1)).change).toBe('unchanged');
    const { localId, change } = store.protocols.upsertFromServer(
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
      store.protocols.upsertFromServer(
        serverProtocol('prt_1', T3, protocolRequest({ lastName: 'Newer' })),
      ).change,
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
    const { localId } = store.protocols.upsertFromServer(server);
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
    expect(store.outbox.count()).toBe(0);
  });

  it('a pull that mirrored a protocol while its create was in flight does not leave a duplicate', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const { entry } = store.outbox.beginPush(p.outbox!.seq);
    const created = serverProtocol('prt_new', T1);
    store.protocols.upsertFromServer(created); // the pull saw it first
    expect(store.protocols.count()).toBe(2);
    store.protocols.markPushed(entry, created);
    expect(store.protocols.count()).toBe(1);
    expect(store.protocols.getByServerId('prt_new')?.localId).toBe(p.localId);
  });
});
