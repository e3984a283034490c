import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/wait';
import { setFaults } from './client-support';
import {
  protocolRequest,
  serverProtocol,
  serverProtocols,
  startSyncHarness,
  type SyncHarness,
} from './sync-support';

let h: SyncHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('SyncEngine', () => {
  it('concurrent syncNow calls share one run', async () => {
    h = await startSyncHarness();
    h.engine.createProtocol(protocolRequest('Shared'));
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
    h.engine.createProtocol(protocolRequest('Ordered'));
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
    const p = h.engine.createProtocol(protocolRequest('Soon'));
    h.engine.updateProtocol(p.localId, protocolRequest('Sooner'));
    expect(h.store.outbox.count()).toBe(1);
    h.timers.advance(499);
    expect(h.net.count('POST', '/v1/protocols')).toBe(0);
    h.timers.advance(1); // the debounce elapsed: one push for both edits
    await waitFor(() => h!.store.outbox.count() === 0, 5_000, 'pushed');
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
    const p = h.engine.createProtocol(bad);
    const report = await h.engine.syncNow();
    expect(report.push.rejected).toBe(1);
    const row = h.store.protocols.get(p.localId)!;
    expect(row.outbox).toMatchObject({ op: 'create', state: 'blocked' });
    expect(row.outbox?.lastError).toMatch(/lineItems\.0\.productId/);
    expect(await serverProtocols(h.sandbox)).toEqual([]);
    expect((await h.engine.syncNow()).push.rejected).toBe(0); // not resent unchanged

    h.engine.updateProtocol(p.localId, protocolRequest('Bad'));
    expect((await h.engine.syncNow()).push.pushed).toBe(1);
    expect(h.store.protocols.get(p.localId)).toMatchObject({ syncState: 'synced', outbox: null });
  });

  it('503 stops the push with a backoff; the next explicit sync goes through', async () => {
    h = await startSyncHarness({ retries: 0 });
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 503,
      count: 1,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const a = h.engine.createProtocol(protocolRequest('First'));
    const b = h.engine.createProtocol(protocolRequest('Second'));
    const stopped = await h.engine.syncNow();
    expect(stopped).toMatchObject({ phase: 'error', push: { stopped: 'unavailable' } });
    expect(stopped.pull).toBeNull();
    const entry = h.store.outbox.liveFor(a.localId)!;
    expect(entry.state).toBe('pending');
    expect(entry.nextAttemptAt).toBeGreaterThan(h.clock.now());
    expect(h.store.outbox.liveFor(b.localId)?.attempts).toBe(0); // the run stopped before it
    expect(h.store.outbox.pending(h.clock.now()).map((e) => e.seq)).toEqual([
      h.store.outbox.liveFor(b.localId)!.seq,
    ]);

    const ok = await h.engine.syncNow();
    expect(ok.push.pushed).toBe(2);
    expect(await serverProtocols(h.sandbox)).toHaveLength(2);
  });

  it('start() turns a push that was in flight at a crash into one in doubt, then reconciles it', async () => {
    h = await startSyncHarness();
    const p = h.engine.createProtocol(protocolRequest('Crashed'));
    // A previous process began the push, the server created it, and the process died.
    const seq = h.store.outbox.liveFor(p.localId)!.seq;
    h.store.outbox.beginPush(seq);
    const created = await h.sandbox.api('POST', '/v1/protocols', protocolRequest('Crashed'));
    expect(created.status).toBe(201);
    h.clock.advance(31_000);
    h.engine.start();
    await waitFor(() => h!.store.outbox.count() === 0, 5_000, 'reconciled');
    expect(await serverProtocols(h.sandbox)).toHaveLength(1);
    expect(h.store.protocols.get(p.localId)?.serverId).toBe((created.body as { id: string }).id);
    expect(h.net.count('POST', '/v1/protocols')).toBe(0);
    expect(await serverProtocol(h.sandbox, (created.body as { id: string }).id)).not.toBeNull();
  });
});
