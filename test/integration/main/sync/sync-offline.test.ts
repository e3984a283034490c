import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@test/support/wait';
import {
  liveChanges,
  protocolRequest,
  serverProtocols,
  startSyncHarness,
  type SyncHarness,
} from '@test/support/sync-harness';

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const lastNames = (ps: { customer: { lastName: string } }[]) =>
  ps.map((p) => p.customer.lastName).sort();

describe('offline drafting, then sync', () => {
  it('creates, edits and deletes offline; one sync brings the server and the store in line', async () => {
    h = await startSyncHarness();
    const { engine, protocols, store, sandbox, net } = h;
    // Two protocols the server already has, mirrored locally.
    const keep = protocols.create(protocolRequest('Kept'));
    const gone = protocols.create(protocolRequest('Doomed'));
    expect((await engine.syncNow()).push.pushed).toBe(2);
    expect(liveChanges(store)).toBe(0);

    net.state.offline = true;
    const a = protocols.create(protocolRequest('Alpha'));
    const b = protocols.create(protocolRequest('Beta'));
    protocols.update(b.localId, protocolRequest('Beta', { quantity: 3 }));
    const never = protocols.create(protocolRequest('Never'));
    expect(protocols.delete(never.localId)).toBe('dropped');
    protocols.update(keep.localId, protocolRequest('Kept', { daysSupply: 90 }));
    expect(protocols.delete(gone.localId)).toBe('queued');

    // A sync while offline changes nothing and says so.
    const offline = await engine.syncNow();
    expect(offline.phase).toBe('offline');
    expect(h.connectivity.online).toBe(false);

    // The UI lists every local change as pending, with its pending change.
    const pending = store.protocols.list({ syncStates: ['pending'], includeDeleted: true }).items;
    expect(
      pending.map((p) => [p.customerName, p.change?.op, p.change?.state, p.deleted]).sort(),
    ).toEqual([
      ['Ada Alpha', 'create', 'queued', false],
      ['Ada Beta', 'create', 'queued', false],
      ['Ada Doomed', 'delete', 'queued', true],
      ['Ada Kept', 'update', 'queued', false],
    ]);
    expect(store.protocols.get(never.localId)).toBeNull();
    expect(lastNames(await serverProtocols(sandbox))).toEqual(['Doomed', 'Kept']);

    net.state.offline = false;
    const report = await engine.syncNow();
    expect(report.phase).toBe('idle');
    expect(report.push).toMatchObject({ pushed: 4, conflicts: 0, rejected: 0, inDoubt: 0 });
    expect(liveChanges(store)).toBe(0);

    const server = await serverProtocols(sandbox);
    expect(lastNames(server)).toEqual(['Alpha', 'Beta', 'Kept']);
    const byName = new Map(server.map((p) => [p.customer.lastName, p]));
    expect(byName.get('Beta')!.lineItems[0]!.quantity).toBe(3);
    expect(byName.get('Kept')!.daysSupply).toBe(90);
    expect(byName.get('Kept')!.id).toBe(store.protocols.get(keep.localId)!.serverId);
    // "Never" was created and deleted offline: the server never saw it.
    expect(net.count('POST', '/v1/protocols')).toBe(4); // Kept, Doomed, Alpha, Beta

    for (const local of [a, b, keep]) {
      const row = store.protocols.get(local.localId)!;
      const copy = server.find((p) => p.id === row.serverId);
      expect(copy, row.customerName).toBeDefined();
      expect(row).toMatchObject({ syncState: 'synced', change: null });
      expect(row.baseUpdatedAt).toBe(copy!.updatedAt);
    }
    expect(store.protocols.get(gone.localId)).toBeNull();
    expect(store.protocols.count()).toBe(3);
  });

  it('the engine pushes by itself when the connection comes back', async () => {
    h = await startSyncHarness();
    const { engine, protocols, store, sandbox, net, timers, connectivity } = h;
    engine.start();
    await waitFor(() => engine.lastSyncedAt !== null, 5_000, 'first sync');

    net.state.offline = true;
    const p = protocols.create(protocolRequest('Offline'));
    h.clock.advance(500);
    timers.advance(500); // the edit settled: its push fails, the connection is reported lost
    await waitFor(() => !connectivity.online, 5_000, 'offline detected');
    expect(store.protocols.get(p.localId)?.change).toMatchObject({
      op: 'create',
      state: 'queued',
    });
    expect(await serverProtocols(sandbox)).toEqual([]);

    net.state.offline = false;
    timers.advance(2_000); // the probe finds the server: online, and a sync follows
    await waitFor(() => liveChanges(store) === 0, 5_000, 'changes pushed');
    const server = await serverProtocols(sandbox);
    expect(server.map((s) => s.id)).toEqual([store.protocols.get(p.localId)!.serverId]);
    expect(h.eventsOf('connectivity').map((e) => e.online)).toEqual([false, true]);
    const counts = h.eventsOf('outbox-count');
    expect(counts[counts.length - 1]).toEqual({ pending: 0, inDoubt: 0, conflicts: 0 });
    expect(counts.some((c) => c.pending === 1)).toBe(true);
  });
});
