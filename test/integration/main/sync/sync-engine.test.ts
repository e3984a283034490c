import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@test/support/wait';
import { setFaults } from '@test/support/client-harness';
import {
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

describe('SyncEngine', () => {
  it('concurrent syncNow calls share one run', async () => {
    h = await startSyncHarness();
    h.protocols.create(protocolRequest('Shared'));
    const [a, b, c] = await Promise.all([
      h.engine.syncNow(),
      h.engine.syncNow(),
      h.engine.syncNow(),
    ]);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(a.push.pushed).toBe(1);
    expect(h.net.count('POST', '/v1/protocols')).toBe(1);
    expect(h.net.count('GET', '/v1/shipping-methods')).toBe(1);
  });

  it('a run pushes before it pulls, and reports its phases', async () => {
    h = await startSyncHarness();
    h.protocols.create(protocolRequest('Ordered'));
    const report = await h.engine.syncNow();
    const paths = h.net.calls.map((c) => `${c.method} ${c.path}`);
    const firstPush = paths.indexOf('POST /v1/protocols');
    const firstPull = paths.indexOf('GET /v1/products');
    expect(firstPush).toBeGreaterThanOrEqual(0);
    expect(firstPull).toBeGreaterThan(firstPush);
    // The pull saw the pushed protocol as the same one: no duplicate row.
    expect(report.pull?.protocols).toMatchObject({ inserted: 0 });
    expect(h.store.protocols.count()).toBe(1);
    const phases = h.eventsOf('sync-state').map((s) => s.phase);
    expect(phases).toEqual(['pushing', 'pulling', 'idle']);
    expect(h.eventsOf('sync-state').at(-1)?.lastSyncedAt).toBe(h.engine.lastSyncedAt);
    expect(h.engine.lastSyncedAt).toBe(report.finishedAt);
  });

  it('a local edit is pushed by itself shortly after, when online', async () => {
    h = await startSyncHarness();
    h.engine.start();
    await waitFor(() => h!.engine.lastSyncedAt !== null, 5_000, 'first sync');
    const p = h.protocols.create(protocolRequest('Soon'));
    h.protocols.update(p.localId, protocolRequest('Sooner'));
    expect(liveChanges(h.store)).toBe(1);
    h.clock.advance(400);
    h.timers.advance(400);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.net.count('POST', '/v1/protocols')).toBe(0);
    h.clock.advance(100);
    h.timers.advance(100); // the edits settled: one push for both
    await waitFor(() => liveChanges(h!.store) === 0, 5_000, 'pushed');
    expect(h.net.count('POST', '/v1/protocols')).toBe(1);
    const server = await serverProtocols(h.sandbox);
    expect(server.map((s) => s.customer.lastName)).toEqual(['Sooner']);
  });

  it('syncs periodically while online', async () => {
    h = await startSyncHarness({
      engine: { intervalMs: 60_000, protocolWalkIntervalMs: 5 * 60_000 },
    });
    h.engine.start();
    await waitFor(() => h!.engine.lastSyncedAt !== null, 5_000, 'first sync');
    const res = await h.sandbox.api('POST', '/v1/protocols', protocolRequest('Remote'));
    expect(res.status).toBe(201);
    await waitFor(() => h!.timers.pending().length > 0, 5_000, 'tick armed');
    // One interval later: a run, but the protocol walk is not due yet (every 5 minutes).
    const walks = h.net.count('GET', '/v1/protocols');
    const shippingReads = h.net.count('GET', '/v1/shipping-methods');
    h.timers.advance(60_000);
    await waitFor(() => h!.net.count('GET', '/v1/shipping-methods') > shippingReads, 5_000, 'tick');
    await waitFor(() => h!.timers.pending().length > 0, 5_000, 'tick re-armed');
    expect(h.net.count('GET', '/v1/protocols')).toBe(walks);
    h.clock.advance(5 * 60_000);
    h.timers.advance(60_000);
    await waitFor(
      () => h!.store.protocols.getByServerId((res.body as { id: string }).id),
      5_000,
      'pulled by the periodic run',
    );
  });

  it('a draft the server refuses is kept, shown as rejected, and pushed once fixed', async () => {
    h = await startSyncHarness();
    const bad = protocolRequest('Bad');
    bad.lineItems = [{ productId: 999_999, quantity: 1, administration: null }];
    const p = h.protocols.create(bad);
    const report = await h.engine.syncNow();
    expect(report.push.rejected).toBe(1);
    const row = h.store.protocols.get(p.localId)!;
    expect(row.change).toMatchObject({ op: 'create', state: 'rejected' });
    expect(JSON.stringify(row.change?.error)).toMatch(/"lineItems",0,"productId"/);
    expect(await serverProtocols(h.sandbox)).toEqual([]);
    expect((await h.engine.syncNow()).push.rejected).toBe(0); // not resent unchanged

    h.protocols.update(p.localId, protocolRequest('Bad'));
    expect((await h.engine.syncNow()).push.pushed).toBe(1);
    expect(h.store.protocols.get(p.localId)).toMatchObject({ syncState: 'synced', change: null });
  });

  it('503 leaves the change queued with a backoff; the next explicit sync sends it', async () => {
    h = await startSyncHarness({ retries: 0 });
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 503,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    h.protocols.create(protocolRequest('First'));
    h.protocols.create(protocolRequest('Second'));
    const stopped = await h.engine.syncNow();
    expect(stopped).toMatchObject({
      phase: 'error',
      push: { stopped: 'error', retried: 1, pushed: 1 },
    });
    expect(stopped.pull).toBeNull();
    const waiting = h.store.protocols.list().items.filter((p) => p.change !== null);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.change).toMatchObject({ state: 'queued', attempts: 1 });
    expect(h.store.jobs.get(waiting[0]!.change!.jobId)!.nextAttemptAt).toBeGreaterThan(
      h.clock.now(),
    );

    const ok = await h.engine.syncNow();
    expect(ok.push.pushed).toBe(1);
    expect(await serverProtocols(h.sandbox)).toHaveLength(2);
  });

  it('a change that was in flight at a crash is in doubt at the next start, then reconciled', async () => {
    h = await startSyncHarness();
    await h.jobs.stop();
    const p = h.protocols.create(protocolRequest('Crashed'));
    // A previous process claimed the change, the server created it, and the process died.
    const [claimed] = h.store.transaction(() =>
      h!.store.jobs.claimDue('protocol', h!.clock.now() + 1_000, 4),
    );
    expect(claimed?.queueKey).toBe(`protocol:${p.localId}`);
    const created = await h.sandbox.api('POST', '/v1/protocols', protocolRequest('Crashed'));
    expect(created.status).toBe(201);
    h.jobs.start();
    expect(h.store.jobs.get(claimed!.id)?.state).toBe('in_doubt');
    // Reconciled only once the grace has passed since it was found in doubt.
    h.clock.advance(31_000);
    h.engine.start();
    await waitFor(() => liveChanges(h!.store) === 0, 5_000, 'reconciled');
    expect(await serverProtocols(h.sandbox)).toHaveLength(1);
    expect(h.store.protocols.get(p.localId)?.serverId).toBe((created.body as { id: string }).id);
    expect(h.net.count('POST', '/v1/protocols')).toBe(0);
    expect(await serverProtocol(h.sandbox, (created.body as { id: string }).id)).not.toBeNull();
  });
});
