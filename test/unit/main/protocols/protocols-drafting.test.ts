import { describe, expect, it } from 'vitest';
import { StoreError } from '@main/db';
import {
  memoryStore,
  mirrorProtocol,
  protocolRequest,
  serverProtocol,
} from '@test/support/store-fixtures';

/** The protocols' pending changes (live jobs) as rows. */
const liveOutbox = (store: ReturnType<typeof memoryStore>) =>
  store.db
    .prepare(
      `SELECT substr(queue_key, 10) AS protocol_local_id, json_extract(data, '$.op') AS op,
         json_extract(data, '$.baseUpdatedAt') AS base_updated_at, state
       FROM jobs WHERE kind = 'protocol' AND state <> 'done' ORDER BY id`,
    )
    .all();

describe('offline drafting', () => {
  it('createDraft writes the row and one pending create', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest({ firstName: '  Ada ' }));
    expect(p).toMatchObject({
      serverId: null,
      server: null,
      baseUpdatedAt: null,
      syncState: 'pending',
      deleted: false,
      customerName: 'Ada Lovelace',
      sourceId: 'patient-0001',
      email: 'ada@example.com',
      change: { op: 'create', state: 'queued', attempts: 0 },
    });
    expect(p.draft.customer.firstName).toBe('Ada'); // parsed with ProtocolRequest: trimmed
    expect(liveOutbox(store)).toEqual([
      { protocol_local_id: p.localId, op: 'create', base_updated_at: null, state: 'queued' },
    ]);
    expect(liveOutbox(store).length).toBe(1);
  });

  it('refuses an invalid draft, writing nothing', () => {
    const store = memoryStore();
    expect(() =>
      store.protocols.createDraft(
        protocolRequest({ address: { line1: 'x', city: 'y', state: 'OR', zipCode: '123' } }),
      ),
    ).toThrow(/5 digits/);
    expect(store.protocols.count({ includeDeleted: true })).toBe(0);
    expect(liveOutbox(store).length).toBe(0);
  });

  it('create then edit before push: still one create, carrying the latest draft', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    const edited = store.protocols.updateDraft(p.localId, protocolRequest({ lastName: 'Byron' }));
    expect(liveOutbox(store)).toEqual([
      { protocol_local_id: p.localId, op: 'create', base_updated_at: null, state: 'queued' },
    ]);
    expect(edited.change).toMatchObject({ jobId: p.change!.jobId, op: 'create' });
    expect(edited.draft.customer.lastName).toBe('Byron');
    expect(edited.rev).toBe(p.rev + 1);
  });

  it('create then delete before push: both gone, the protocol never existed on the server', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    expect(store.protocols.deleteDraft(p.localId)).toBe('dropped');
    expect(store.protocols.get(p.localId)).toBeNull();
    expect(store.db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
  });

  it('edits of a synced protocol coalesce into one update keeping the first base', () => {
    const store = memoryStore();
    const { localId } = mirrorProtocol(store, serverProtocol('prt_1', '2025-02-01T09:00:00Z'));
    expect(store.protocols.get(localId)).toMatchObject({
      syncState: 'synced',
      change: null,
      serverId: 'prt_1',
    });
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'One' }));
    // the pull refreshes the server copy meanwhile; the base must not move
    mirrorProtocol(store, serverProtocol('prt_1', '2025-02-02T09:00:00Z'));
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Two' }));
    expect(liveOutbox(store)).toEqual([
      {
        protocol_local_id: localId,
        op: 'update',
        base_updated_at: '2025-02-01T09:00:00Z',
        state: 'queued',
      },
    ]);
    const p = store.protocols.get(localId)!;
    expect(p.draft.customer.lastName).toBe('Two');
    expect(p.baseUpdatedAt).toBe('2025-02-01T09:00:00Z');
    expect(p.server?.updatedAt).toBe('2025-02-02T09:00:00Z');
  });

  it('update then delete: one delete with the update base', () => {
    const store = memoryStore();
    const { localId } = mirrorProtocol(store, serverProtocol('prt_1', '2025-02-01T09:00:00Z'));
    store.protocols.updateDraft(localId, protocolRequest({ lastName: 'One' }));
    expect(store.protocols.deleteDraft(localId)).toBe('queued');
    expect(liveOutbox(store)).toEqual([
      {
        protocol_local_id: localId,
        op: 'delete',
        base_updated_at: '2025-02-01T09:00:00Z',
        state: 'queued',
      },
    ]);
    expect(store.protocols.get(localId)).toMatchObject({ deleted: true, syncState: 'pending' });
    expect(store.protocols.list().items).toEqual([]);
    expect(store.protocols.list({ includeDeleted: true }).items.map((x) => x.localId)).toEqual([
      localId,
    ]);
    expect(() => store.protocols.updateDraft(localId, protocolRequest())).toThrow(StoreError);
    expect(store.protocols.deleteDraft(localId)).toBe('queued'); // again: nothing changes
    expect(liveOutbox(store).length).toBe(1);
  });

  it('delete of a synced protocol queues a delete based on its server updatedAt', () => {
    const store = memoryStore();
    const { localId } = mirrorProtocol(store, serverProtocol('prt_9', '2025-02-03T09:00:00Z'));
    store.protocols.deleteDraft(localId);
    expect(liveOutbox(store)).toEqual([
      {
        protocol_local_id: localId,
        op: 'delete',
        base_updated_at: '2025-02-03T09:00:00Z',
        state: 'queued',
      },
    ]);
  });

  it('an exception inside a multi-step write leaves nothing behind', () => {
    const store = memoryStore();
    const { localId } = mirrorProtocol(store, serverProtocol('prt_1', '2025-02-01T09:00:00Z'));
    // make the job insert fail after the row update has run
    store.db.exec(
      "CREATE TRIGGER fail_jobs BEFORE INSERT ON jobs BEGIN SELECT RAISE(ABORT, 'outbox is broken'); END;",
    );
    expect(() =>
      store.protocols.updateDraft(localId, protocolRequest({ lastName: 'Changed' })),
    ).toThrow(/outbox is broken/);
    expect(() => store.protocols.createDraft(protocolRequest({ sourceId: 'new-one' }))).toThrow(
      /outbox is broken/,
    );
    const p = store.protocols.get(localId)!;
    expect(p.draft.customer.lastName).toBe('Lovelace');
    expect(p.syncState).toBe('synced');
    expect(p.rev).toBe(0);
    expect(store.protocols.count()).toBe(1);
    expect(store.protocols.search('changed')).toEqual([]); // the FTS index rolled back too
    expect(store.protocols.search('new-one')).toEqual([]);
  });

  it('reads by server id', () => {
    const store = memoryStore();
    const a = mirrorProtocol(store, serverProtocol('prt_a', '2025-02-01T09:00:00Z'));
    const b = store.protocols.createDraft(protocolRequest());
    expect(store.protocols.getByServerId('prt_a')?.localId).toBe(a.localId);
    expect(store.protocols.getByServerId('nope')).toBeNull();
    expect(store.protocols.get(b.localId)?.serverId).toBeNull();
    expect(store.protocols.serverIds()).toEqual(['prt_a']);
  });
});
