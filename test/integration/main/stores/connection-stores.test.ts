import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { saveConnectionSecret } from '@main/connections/connection';
import { Core } from '@main/core';
import { createOrder } from '@main/bulk/create-order';
import { Redactor, silentLogger } from '@main/logging';
import { connectionStoreFile, LEGACY_STORE_FILE, SETTING_KEYS } from '@main/db';
import { createLocalStore, openAppStore } from '@main/stores';
import { protocolFor } from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { advanceOrder } from '@test/support/sandbox-orders';
import { liveChanges, serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { TEST_KEY } from '@test/support/store-key';

/**
 * One store file per connection: switching opens another file and deletes nothing, so switching
 * back finds every protocol, batch, status timeline and last change as it was, and what was not
 * sent yet is sent when its connection is active again. The single store of earlier versions
 * becomes the active connection's store at the first start, without losing anything.
 */

let a: TestSandbox;
let b: TestSandbox;
let dataDir: string;
let credentials: MemoryCredentialStore;
const cores: Core[] = [];

beforeEach(async () => {
  [a, b] = await Promise.all([startTestSandbox(), startTestSandbox()]);
  dataDir = mkdtempSync(join(tmpdir(), 'order-desk-stores-'));
  credentials = new MemoryCredentialStore();
});

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close().catch(() => undefined);
  await Promise.all([a.close(), b.close()]);
  rmSync(dataDir, { recursive: true, force: true });
});

const openCore = async () => {
  const core = await Core.open({
    key: TEST_KEY,
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
    tuning: { inDoubtGraceMs: { protocol: 200, order: 200 }, probeBackoffMs: 100 },
  });
  cores.push(core);
  return core;
};

const partner = (sandbox: TestSandbox, label: string) => ({
  kind: 'partner-sandbox' as const,
  label,
  baseUrl: sandbox.baseUrl,
  authUrl: sandbox.authUrl,
  clientId: sandbox.clientId,
});

/** Everything a clinic sees of one connection's history. */
function history(core: Core) {
  const store = core.store;
  return {
    protocols: store.protocols
      .list({ limit: 500 })
      .items.map((p) => [p.localId, p.sourceId, p.localUpdatedAt, p.syncState]),
    batches: store.batches.list().map((x) => [x.id, x.state, x.finishedAt]),
    orders: store.orders.list({ limit: 500 }).map((o) => [o.id, o.status]),
    timelines: store.orders.list({ limit: 500 }).map((o) => store.orders.timeline(o.id)),
  };
}

describe('one store per connection', () => {
  it('switching and switching back keeps the history; unsent work waits for its connection', async () => {
    const core = await openCore();
    const first = await core.connect(partner(a, 'Clinic A'), a.clientSecret);
    const made = core.session!.protocols.create(protocolFor('stores-a-1'));
    await waitFor(() => liveChanges(core.store) === 0, 10_000, 'the draft of A unsent');
    // An order from it (a batch of one), then a status change the app sees: a timeline.
    const batchId = createOrder(
      { store: core.store, bulk: core.session!.bulk },
      { protocolLocalId: made.localId },
    );
    const orderId = await waitFor(
      () => core.store.batches.items(batchId)[0]?.orderId,
      15_000,
      'no order created',
    );
    await advanceOrder(a, orderId, 'PROCESSING');
    await core.session!.orders.refreshOrder(orderId);
    const before = history(core);
    expect(before.batches).toEqual([[batchId, 'done', expect.any(Number)]]);
    expect(before.timelines[0]!.map((c) => c.status)).toEqual(['NEW', 'PROCESSING']);

    // B: its own, empty store; a draft there that the server refuses to take for now.
    const second = await core.connect(partner(b, 'Clinic B'), b.clientSecret);
    expect(history(core)).toEqual({ protocols: [], batches: [], orders: [], timelines: [] });
    await setFaults(b, {
      errorRate: 1,
      errorStatus: 503,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const waiting = core.session!.protocols.create(protocolFor('stores-b-1'));
    await waitFor(
      () => {
        const change = core.store.protocols.get(waiting.localId)?.change;
        return change?.state === 'queued' && change.attempts > 0;
      },
      10_000,
      'the draft of B was not tried',
    );

    // Back to A: nothing lost, nothing changed, and nothing asked.
    await core.activate(first.id);
    expect(history(core)).toEqual(before);
    // B's unsent draft waits in B's own file.
    expect(core.removal(second.id)).toMatchObject({ protocols: 1, unsentChanges: 1 });
    expect(
      readdirSync(join(dataDir, 'connections'))
        .filter((f) => f.endsWith('.db'))
        .sort(),
    ).toEqual([`${first.id}.db`, `${second.id}.db`].sort());

    // And once B is active again (the server takes it now), it is sent, once.
    await setFaults(b, {});
    await core.activate(second.id);
    await waitFor(() => liveChanges(core.store) === 0, 15_000, 'the draft of B unsent');
    expect((await serverProtocols(b)).map((p) => p.customer.sourceId)).toEqual(['stores-b-1']);
    expect((await serverProtocols(a)).map((p) => p.customer.sourceId)).toEqual(['stores-a-1']);
  });

  it('keeps an undo history per connection, across a restart', async () => {
    const core = await openCore();
    const first = await core.connect(partner(a, 'Clinic A'), a.clientSecret);
    const made = core.session!.protocols.create(protocolFor('undo-a-1'));
    core.session!.protocols.update(made.localId, { ...protocolFor('undo-a-1'), daysSupply: 90 });
    expect(core.session!.protocols.undoState().undo).toMatchObject({ kind: 'edit' });

    // B's history is its own: nothing of A's to undo there.
    await core.connect(partner(b, 'Clinic B'), b.clientSecret);
    expect(core.session!.protocols.undoState()).toEqual({ undo: null, redo: null });
    expect(() => core.session!.protocols.undo()).toThrow(/Nothing to undo/);

    // A again, after a restart: its steps are still there, and undo works on them.
    await core.activate(first.id);
    await core.close();
    cores.splice(cores.indexOf(core), 1);
    const again = await openCore();
    expect(again.session!.protocols.undoState().undo).toMatchObject({ kind: 'edit' });
    again.session!.protocols.undo();
    expect(again.store.protocols.get(made.localId)?.draft.daysSupply).toBe(30);
  });

  it('migrates the single store of an earlier version at the first start, without losing anything', async () => {
    // What an earlier version left: one file with the connections, the settings and the mirror
    // of the active connection, including a draft never sent and an order's timeline.
    const legacy = createLocalStore(join(dataDir, LEGACY_STORE_FILE), { key: TEST_KEY });
    const insert = legacy.db.prepare(
      `INSERT INTO connections (id, kind, label, base_url, auth_url, client_id, created_at, is_active)
       VALUES (?, 'partner-sandbox', ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('conn_old', 'Clinic A', a.baseUrl, a.authUrl, a.clientId, 1, 1);
    insert.run('conn_other', 'Clinic B', b.baseUrl, b.authUrl, b.clientId, 2, 0);
    legacy.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?), (?, ?)')
      .run(SETTING_KEYS.theme, '"dark"', SETTING_KEYS.notifications, 'false');
    const draft = legacy.protocols.createDraft(protocolFor('legacy-1'));
    legacy.close();
    await saveConnectionSecret(
      credentials,
      { id: 'conn_old', clientId: a.clientId },
      a.clientSecret,
    );

    // An earlier start was cut short after copying the connections: run again, no duplicate.
    const interrupted = openAppStore(dataDir, { key: TEST_KEY });
    interrupted.connections.adopt({
      ...partner(a, 'Clinic A'),
      baseUrl: a.baseUrl,
      id: 'conn_old',
      createdAt: 1,
      isActive: true,
    });
    interrupted.close();

    const core = await openCore();
    expect(core.listConnections().map((c) => [c.id, c.label, c.isActive])).toEqual([
      ['conn_old', 'Clinic A', true],
      ['conn_other', 'Clinic B', false],
    ]);
    expect(core.app.settings.get(SETTING_KEYS.theme, z.string(), 'system')).toBe('dark');
    expect(core.app.settings.get(SETTING_KEYS.notifications, z.boolean(), true)).toBe(false);
    expect(existsSync(join(dataDir, LEGACY_STORE_FILE))).toBe(false);
    expect(existsSync(connectionStoreFile(dataDir, 'conn_old'))).toBe(true);
    // The mirror is the active connection's, and its unsent draft is sent.
    expect(core.store.protocols.get(draft.localId)?.draft.customer.sourceId).toBe('legacy-1');
    await waitFor(() => liveChanges(core.store) === 0, 10_000, 'the legacy draft unsent');
    expect((await serverProtocols(a)).map((p) => p.customer.sourceId)).toEqual(['legacy-1']);

    // Started again: nothing more to migrate, nothing changed.
    await core.close();
    const again = await openCore();
    expect(again.listConnections()).toHaveLength(2);
    expect(again.store.protocols.count()).toBe(1);
  });

  it('keeps the single store aside when no connection was active in it', async () => {
    const legacy = createLocalStore(join(dataDir, LEGACY_STORE_FILE), { key: TEST_KEY });
    legacy.db
      .prepare(
        `INSERT INTO connections (id, kind, label, base_url, auth_url, client_id, created_at, is_active)
         VALUES ('conn_old', 'partner-sandbox', 'Clinic A', ?, ?, ?, 1, 0)`,
      )
      .run(a.baseUrl, a.authUrl, a.clientId);
    legacy.close();
    const core = await openCore();
    expect(core.listConnections().map((c) => [c.id, c.isActive])).toEqual([['conn_old', false]]);
    expect(
      readdirSync(dataDir).filter((f) => /^order-desk\.single-file-.*\.db$/.test(f)),
    ).toHaveLength(1);
    expect(existsSync(join(dataDir, LEGACY_STORE_FILE))).toBe(false);
  });
});
