import { afterEach, describe, expect, it } from 'vitest';
import type { Protocol } from '@shared/api';
import {
  deleteOnServer,
  editOnServer,
  liveChanges,
  protocolRequest,
  serverProtocol,
  serverProtocols,
  startSyncHarness,
  type SyncHarness,
} from '@test/support/sync-harness';

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** A protocol synced to the server: its local id and server copy. */
async function synced(name: string) {
  const local = h!.protocols.create(protocolRequest(name));
  await h!.engine.syncNow();
  const row = h!.store.protocols.get(local.localId)!;
  expect(row.syncState).toBe('synced');
  return { localId: local.localId, serverId: row.serverId! };
}

/** Edited locally ("Mine") and on the server ("Theirs"), then a sync finds the conflict. */
async function editedOnBothSides() {
  h = await startSyncHarness();
  const { localId, serverId } = await synced('Original');
  const theirs = await editOnServer(
    h.sandbox,
    serverId,
    protocolRequest('Theirs', { sourceId: 'src-original' }),
  );
  h.protocols.update(localId, protocolRequest('Mine', { sourceId: 'src-original' }));
  const report = await h.engine.syncNow();
  expect(report.push.conflicts).toBe(1);
  return { localId, serverId, theirs };
}

const lastName = (p: Protocol | null) => p?.customer.lastName;

describe('conflicts: edited on the server while edited locally', () => {
  it('is recorded with both versions and the server copy is not overwritten', async () => {
    const { localId, serverId, theirs } = await editedOnBothSides();
    const row = h!.store.protocols.get(localId)!;
    expect(row).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'edited-on-server' },
      change: { op: 'update', state: 'rejected' },
    });
    const server = await serverProtocol(h!.sandbox, serverId);
    expect(server).toEqual(theirs);
    expect(h!.protocols.conflicts()).toEqual([
      expect.objectContaining({
        localId,
        kind: 'edited-on-server',
        mine: expect.objectContaining({ customer: expect.objectContaining({ lastName: 'Mine' }) }),
        theirs: expect.objectContaining({ updatedAt: theirs.updatedAt }),
        choices: ['keep-mine', 'take-theirs', 'keep-both'],
      }),
    ]);
    // Another sync changes nothing: the conflict waits for the user.
    const again = await h!.engine.syncNow();
    expect(again.push.pushed + again.push.conflicts).toBe(0);
    expect(await serverProtocol(h!.sandbox, serverId)).toEqual(theirs);
    expect(h!.eventsOf('outbox-count').at(-1)).toEqual({ pending: 0, inDoubt: 0, conflicts: 1 });
  });

  it('keep mine: my content replaces theirs on the server after sync', async () => {
    const { localId, serverId, theirs } = await editedOnBothSides();
    h!.protocols.resolveConflict(localId, 'keep-mine');
    const change = h!.store.protocols.get(localId)!.change!;
    expect(change).toMatchObject({ op: 'update', state: 'queued' });
    expect(h!.store.jobs.get(change.jobId)!.data).toMatchObject({
      baseUpdatedAt: theirs.updatedAt,
    });
    expect((await h!.engine.syncNow()).push.pushed).toBe(1);
    const server = await serverProtocol(h!.sandbox, serverId);
    expect(lastName(server)).toBe('Mine');
    expect(h!.store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      conflict: null,
      baseUpdatedAt: server!.updatedAt,
    });
    expect(await serverProtocols(h!.sandbox)).toHaveLength(1);
  });

  it('take theirs: the local copy becomes the server copy, nothing is pushed', async () => {
    const { localId, serverId, theirs } = await editedOnBothSides();
    h!.protocols.resolveConflict(localId, 'take-theirs');
    expect(liveChanges(h!.store)).toBe(0);
    const puts = h!.net.count('PUT', `/v1/protocols/${serverId}`);
    await h!.engine.syncNow();
    expect(h!.net.count('PUT', `/v1/protocols/${serverId}`)).toBe(puts);
    expect(await serverProtocol(h!.sandbox, serverId)).toEqual(theirs);
    const row = h!.store.protocols.get(localId)!;
    expect(row).toMatchObject({ syncState: 'synced', baseUpdatedAt: theirs.updatedAt });
    expect(row.draft.customer.lastName).toBe('Theirs');
  });

  it('keep both: mine becomes a new protocol, the original takes theirs', async () => {
    const { localId, serverId, theirs } = await editedOnBothSides();
    const { copyLocalId } = h!.protocols.resolveConflict(localId, 'keep-both');
    expect((await h!.engine.syncNow()).push.pushed).toBe(1);
    const server = await serverProtocols(h!.sandbox);
    expect(server.map(lastName).sort()).toEqual(['Mine', 'Theirs']);
    expect(server.find((p) => p.id === serverId)).toEqual(theirs);
    const copy = h!.store.protocols.get(copyLocalId!)!;
    expect(copy).toMatchObject({ syncState: 'synced' });
    expect(lastName(server.find((p) => p.id === copy.serverId) ?? null)).toBe('Mine');
    expect(h!.store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      serverId,
      customerName: 'Ada Theirs',
    });
    expect(h!.store.protocols.count()).toBe(2);
  });
});

describe('conflicts: deleted on the server while edited locally', () => {
  async function deletedOnServer() {
    h = await startSyncHarness();
    const { localId, serverId } = await synced('Original');
    await deleteOnServer(h.sandbox, serverId);
    h.protocols.update(localId, protocolRequest('Mine', { sourceId: 'src-original' }));
    expect((await h.engine.syncNow()).push.conflicts).toBe(1);
    expect(h.store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'deleted-on-server' },
    });
    expect(h.protocols.conflicts()[0]).toMatchObject({ localId, theirs: null });
    return { localId, serverId };
  }

  it('keep mine recreates it on the server', async () => {
    const { localId, serverId } = await deletedOnServer();
    h!.protocols.resolveConflict(localId, 'keep-mine');
    expect((await h!.engine.syncNow()).push.pushed).toBe(1);
    const server = await serverProtocols(h!.sandbox);
    expect(server.map(lastName)).toEqual(['Mine']);
    expect(server[0]!.id).not.toBe(serverId);
    expect(h!.store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      serverId: server[0]!.id,
    });
  });

  it('take theirs removes it locally', async () => {
    const { localId } = await deletedOnServer();
    h!.protocols.resolveConflict(localId, 'take-theirs');
    await h!.engine.syncNow();
    expect(h!.store.protocols.get(localId)).toBeNull();
    expect(h!.store.protocols.count({ includeDeleted: true })).toBe(0);
    expect(await serverProtocols(h!.sandbox)).toEqual([]);
  });

  it('the pull finds it too when the local edit is waiting behind a rejection', async () => {
    h = await startSyncHarness();
    const { localId, serverId } = await synced('Original');
    // An edit the server refuses (unknown product): the entry is blocked, the edit kept.
    const bad = protocolRequest('Mine', { sourceId: 'src-original' });
    bad.lineItems = [{ productId: 999_999, quantity: 1, administration: null }];
    h.protocols.update(localId, bad);
    const rejected = await h.engine.syncNow();
    expect(rejected.push.rejected).toBe(1);
    expect(h.store.protocols.get(localId)?.change).toMatchObject({ state: 'rejected' });
    await deleteOnServer(h.sandbox, serverId);
    const report = await h.engine.syncNow();
    expect(report.pull?.protocols?.conflicts).toBe(1);
    expect(h.store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      conflict: { kind: 'deleted-on-server' },
    });
  });
});

describe('conflicts: deleted locally while edited on the server', () => {
  async function deletedLocally() {
    h = await startSyncHarness();
    const { localId, serverId } = await synced('Original');
    const theirs = await editOnServer(
      h.sandbox,
      serverId,
      protocolRequest('Theirs', { sourceId: 'src-original' }),
    );
    expect(h.protocols.delete(localId)).toBe('queued');
    expect((await h.engine.syncNow()).push.conflicts).toBe(1);
    expect(h.store.protocols.get(localId)).toMatchObject({
      syncState: 'conflict',
      deleted: true,
      conflict: { kind: 'deleted-locally-edited-on-server' },
    });
    expect(await serverProtocol(h.sandbox, serverId)).toEqual(theirs);
    expect(h.protocols.conflicts()[0]).toMatchObject({
      mine: null,
      choices: ['keep-mine', 'take-theirs'],
    });
    expect(() => h!.protocols.resolveConflict(localId, 'keep-both')).toThrow(/does not apply/);
    return { localId, serverId, theirs };
  }

  it('keep mine deletes it on the server', async () => {
    const { localId, serverId } = await deletedLocally();
    h!.protocols.resolveConflict(localId, 'keep-mine');
    expect((await h!.engine.syncNow()).push.pushed).toBe(1);
    expect(await serverProtocol(h!.sandbox, serverId)).toBeNull();
    expect(h!.store.protocols.get(localId)).toBeNull();
  });

  it('take theirs restores the server copy locally', async () => {
    const { localId, serverId, theirs } = await deletedLocally();
    h!.protocols.resolveConflict(localId, 'take-theirs');
    await h!.engine.syncNow();
    expect(await serverProtocol(h!.sandbox, serverId)).toEqual(theirs);
    expect(h!.store.protocols.get(localId)).toMatchObject({
      deleted: false,
      syncState: 'synced',
      customerName: 'Ada Theirs',
      change: null,
    });
  });
});
