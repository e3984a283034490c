import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '@test/support/client-harness';
import {
  deleteOnServer,
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

/** Past the grace period after which an in-doubt push is reconciled. */
const AFTER_GRACE = 31_000;

describe('lost answers', () => {
  it('a PUT whose answer was dropped is adopted by the next sync, without a false conflict', async () => {
    // No client retries: the dropped answer reaches the sync layer instead of being resent.
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox, net } = h;
    const local = protocols.create(protocolRequest('Before'));
    await engine.syncNow();
    const serverId = store.protocols.get(local.localId)!.serverId!;

    protocols.update(local.localId, protocolRequest('After', { sourceId: 'src-before' }));
    await setFaults(sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'PUT', path: '/v1/protocols' },
    });
    const first = await engine.syncNow();
    expect(first.push.inDoubt).toBe(1);
    expect(store.protocols.get(local.localId)?.change).toMatchObject({ state: 'in_doubt' });
    // The write committed although its answer was lost.
    const committed = await serverProtocol(sandbox, serverId);
    expect(committed?.customer.lastName).toBe('After');

    h.clock.advance(AFTER_GRACE);
    const second = await engine.syncNow();
    expect(second.push).toMatchObject({ adopted: 1, conflicts: 0, pushed: 0 });
    expect(net.count('PUT', `/v1/protocols/${serverId}`)).toBe(1);
    expect(store.protocols.get(local.localId)).toMatchObject({
      syncState: 'synced',
      conflict: null,
      change: null,
      baseUpdatedAt: committed!.updatedAt,
    });
    expect(await serverProtocol(sandbox, serverId)).toEqual(committed);
  });

  it('a create whose answer was dropped is reconciled: exactly one server protocol', async () => {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox, net } = h;
    await engine.syncNow(); // the mirror, before the fault
    await setFaults(sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = protocols.create(protocolRequest('Lost'));
    const first = await engine.syncNow();
    expect(first.push.inDoubt).toBe(1);
    expect(await serverProtocols(sandbox)).toHaveLength(1);
    // A create in doubt keeps the protocol walk from mirroring its server copy as another row.
    expect(store.protocols.count()).toBe(1);
    expect(first.pull?.protocols).toBeNull();

    h.clock.advance(AFTER_GRACE);
    const second = await engine.syncNow();
    expect(second.push).toMatchObject({ adopted: 1, pushed: 0 });
    const server = await serverProtocols(sandbox);
    expect(server).toHaveLength(1);
    expect(net.count('POST', '/v1/protocols')).toBe(1);
    expect(store.protocols.get(local.localId)).toMatchObject({
      serverId: server[0]!.id,
      syncState: 'synced',
      change: null,
    });
    expect(store.protocols.count()).toBe(1);
  });

  it('a create that failed with a 500 before committing is found absent and sent once more', async () => {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox, net } = h;
    await setFaults(sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = protocols.create(protocolRequest('Failed'));
    expect((await engine.syncNow()).push.inDoubt).toBe(1);
    expect(await serverProtocols(sandbox)).toEqual([]);

    // Within the grace period nothing is resent.
    expect((await engine.syncNow()).push.inDoubt).toBe(1);
    expect(net.count('POST', '/v1/protocols')).toBe(1);

    h.clock.advance(AFTER_GRACE);
    expect((await engine.syncNow()).push).toMatchObject({ pushed: 1, adopted: 0 });
    const server = await serverProtocols(sandbox);
    expect(server).toHaveLength(1);
    expect(net.count('POST', '/v1/protocols')).toBe(2);
    expect(store.protocols.get(local.localId)?.serverId).toBe(server[0]!.id);
  });

  it('an in-doubt create does not adopt a server protocol that is already another local one', async () => {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox } = h;
    // The same content twice, for the same patient: the first is synced normally.
    const twin = protocols.create(protocolRequest('Twin'));
    await engine.syncNow();
    await setFaults(sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const second = protocols.create(protocolRequest('Twin'));
    expect((await engine.syncNow()).push.inDoubt).toBe(1);
    h.clock.advance(AFTER_GRACE);
    expect((await engine.syncNow()).push).toMatchObject({ pushed: 1, adopted: 0 });
    const server = await serverProtocols(sandbox);
    expect(server).toHaveLength(2);
    const ids = [twin, second].map((p) => store.protocols.get(p.localId)!.serverId);
    expect(new Set(ids).size).toBe(2);
    expect(ids.sort()).toEqual(server.map((p) => p.id).sort());
  });
});

/**
 * "Twins": two local protocols with the same patient and content (a second script, a repeated CSV
 * row). When both creates are in doubt in one reconciliation round, each keeps its own local row
 * and gets its own server copy; none is taken for the other's, and none is deleted.
 */
describe('twin protocols in doubt in one round', () => {
  async function twinsInDoubt() {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox } = h;
    await engine.syncNow();
    await setFaults(sandbox, {
      dropResponseRate: 1,
      count: 2,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const twins = [
      protocols.create(protocolRequest('Twin')),
      protocols.create(protocolRequest('Twin')),
    ];
    const first = await engine.syncNow();
    expect(first.push.inDoubt).toBe(2);
    expect(twins.map((t) => store.protocols.get(t.localId)?.change?.state)).toEqual([
      'in_doubt',
      'in_doubt',
    ]);
    return twins.map((t) => t.localId);
  }

  /** Both twins synced, each linked to its own one of the two server protocols; none deleted. */
  async function expectEachTwinItsOwnCopy(ids: string[]) {
    const { store, sandbox } = h!;
    const server = await serverProtocols(sandbox);
    expect(server).toHaveLength(2);
    const local = ids.map((id) => store.protocols.get(id));
    expect(local.every((p) => p?.syncState === 'synced' && p.change === null)).toBe(true);
    expect(new Set(local.map((p) => p!.serverId)).size).toBe(2);
    expect(local.map((p) => p!.serverId).sort()).toEqual(server.map((p) => p.id).sort());
    expect(store.protocols.count({ includeDeleted: true })).toBe(2);
  }

  it('both committed: each keeps its row and its own server copy', async () => {
    const ids = await twinsInDoubt();
    const { engine, sandbox, net } = h!;
    expect(await serverProtocols(sandbox)).toHaveLength(2);

    h!.clock.advance(AFTER_GRACE);
    const second = await engine.syncNow();
    expect(second.push).toMatchObject({ adopted: 2, pushed: 0 });
    expect(net.count('POST', '/v1/protocols')).toBe(2);
    await expectEachTwinItsOwnCopy(ids);
  });

  it('one committed, the other not: one is adopted, the other sent again', async () => {
    const ids = await twinsInDoubt();
    const { engine, sandbox, net } = h!;
    // As if the second create had been answered 500 before committing.
    const committed = await serverProtocols(sandbox);
    await deleteOnServer(sandbox, committed[0]!.id);
    expect(await serverProtocols(sandbox)).toHaveLength(1);

    h!.clock.advance(AFTER_GRACE);
    const second = await engine.syncNow();
    expect(second.push).toMatchObject({ adopted: 1, pushed: 1 });
    expect(net.count('POST', '/v1/protocols')).toBe(3);
    await expectEachTwinItsOwnCopy(ids);
  });

  it('a server protocol that differs in a field sent (shipping) is not taken for the create', async () => {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox } = h;
    await engine.syncNow();
    await setFaults(sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = protocols.create(protocolRequest('Ship'));
    expect((await engine.syncNow()).push.inDoubt).toBe(1);
    // Someone else makes the same patient's protocol, shipped otherwise, meanwhile.
    const other = { ...protocolRequest('Ship'), shippingMethod: 'OVERNIGHT' as const };
    const res = await sandbox.api<{ id: string }>('POST', '/v1/protocols', other);
    expect(res.status).toBeLessThan(300);

    h.clock.advance(AFTER_GRACE);
    expect((await engine.syncNow()).push).toMatchObject({ adopted: 0, pushed: 1 });
    const mine = store.protocols.get(local.localId)!;
    expect(mine.serverId).not.toBe(res.body.id);
    expect(mine.server?.shippingMethod).toBe(protocolRequest('Ship').shippingMethod);
  });

  it('a copy the pull made of the protocol meanwhile is merged, not taken for another and resent', async () => {
    h = await startSyncHarness({ retries: 0 });
    const { engine, protocols, store, sandbox, net } = h;
    await engine.syncNow();
    await setFaults(sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = protocols.create(protocolRequest('Raced'));
    expect((await engine.syncNow()).push.inDoubt).toBe(1);
    // A pull that was walking when the create committed mirrors it as a protocol of its own.
    const [copy] = await serverProtocols(sandbox);
    store.protocols.upsertManyFromServer([copy!]);
    expect(store.protocols.count()).toBe(2);

    h.clock.advance(AFTER_GRACE);
    expect((await engine.syncNow()).push).toMatchObject({ adopted: 1, pushed: 0 });
    expect(net.count('POST', '/v1/protocols')).toBe(1);
    expect(await serverProtocols(sandbox)).toHaveLength(1);
    expect(store.protocols.count({ includeDeleted: true })).toBe(1);
    expect(store.protocols.get(local.localId)).toMatchObject({
      serverId: copy!.id,
      syncState: 'synced',
      change: null,
    });
  });
});
