import { afterEach, describe, expect, it } from 'vitest';
import { setFaults } from '../../support/client-harness';
import {
  protocolRequest,
  serverProtocol,
  serverProtocols,
  startSyncHarness,
  type SyncHarness,
} from '../../support/sync-harness';

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
    const { engine, store, sandbox, net } = h;
    const local = engine.createProtocol(protocolRequest('Before'));
    await engine.syncNow();
    const serverId = store.protocols.get(local.localId)!.serverId!;

    engine.updateProtocol(local.localId, protocolRequest('After', { sourceId: 'src-before' }));
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
    const { engine, store, sandbox, net } = h;
    await engine.syncNow(); // the mirror, before the fault
    await setFaults(sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = engine.createProtocol(protocolRequest('Lost'));
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
    const { engine, store, sandbox, net } = h;
    await setFaults(sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const local = engine.createProtocol(protocolRequest('Failed'));
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
    const { engine, store, sandbox } = h;
    // The same content twice, for the same patient: the first is synced normally.
    const twin = engine.createProtocol(protocolRequest('Twin'));
    await engine.syncNow();
    await setFaults(sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const second = engine.createProtocol(protocolRequest('Twin'));
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
