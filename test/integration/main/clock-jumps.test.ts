import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '@main/clock';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core } from '@main/core';
import { Redactor, silentLogger } from '@main/logging';
import { createOrder } from '@main/bulk/create-order';
import {
  protocolFor,
  allServerOrders,
  clearFaults,
  createLocalProtocols,
} from '@test/support/bulk';
import { expectOneOrderPerProtocol } from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { TEST_KEY } from '@test/support/store-key';

/**
 * The PC's clock is wrong, or is set while the app runs: decisions against the server use the
 * server's time, and schedules a steady clock, so a lost answer never becomes a duplicate and no
 * saved change waits for the clock to come round again. Through Core, as the app is wired.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The PC's clock: real time plus an offset the test sets. */
function wallClock(offsetMs = 0) {
  let offset = offsetMs;
  return {
    now: () => Date.now() + offset,
    set(ms: number) {
      offset = ms;
    },
  } satisfies Clock & { set(ms: number): void };
}

let sandbox: TestSandbox | null = null;
let core: Core | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await core?.close();
  await sandbox?.close();
  core = null;
  sandbox = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Place {
  dataDir: string;
  credentials: MemoryCredentialStore;
}

function newPlace(): Place {
  const dataDir = mkdtempSync(join(tmpdir(), 'od-clock-'));
  dirs.push(dataDir);
  return { dataDir, credentials: new MemoryCredentialStore() };
}

/** Core.open as the app does it, with short waits; it resumes the active connection, if any. */
function reopen(wall: Clock, place: Place): Promise<Core> {
  return Core.open({
    key: TEST_KEY,
    ...place,
    log: silentLogger,
    redactor: new Redactor(),
    clock: wall,
    tuning: {
      client: { sleep: async () => undefined, timeoutMs: 2_000 },
      inDoubtGraceMs: { protocol: 1_000, order: 1_000 },
      probeBackoffMs: 50,
    },
  });
}

/** A new data directory, connected to the test sandbox. */
async function openCore(wall: Clock, place: Place = newPlace()): Promise<Core> {
  sandbox ??= await startTestSandbox();
  const opened = await reopen(wall, place);
  await opened.connect(
    {
      label: 'Partner sandbox',
      kind: 'partner-sandbox',
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
    },
    sandbox.clientSecret,
  );
  return opened;
}

const unsent = (c: Core) => {
  const n = c.store.jobs.counts({ kind: 'protocol' });
  return n.queued + n.sending + n.in_doubt + n.rejected;
};

describe('a PC clock that is wrong or jumps', () => {
  it(
    'ten minutes ahead, with lost answers: one protocol and one order each',
    { timeout: 90_000 },
    async () => {
      core = await openCore(wallClock(10 * MINUTE));
      const c = core;
      const ids = createLocalProtocols(c.store, 20, 'ahead');
      await setFaults(sandbox!, { dropResponseRate: 0.5, match: { method: 'POST', path: '/v1/' } });
      const session = c.session!;
      const batchId = session.bulk.submit(ids, { concurrency: 4 });
      await waitFor(
        async () => {
          await session.sync.syncNow();
          return session.bulk.progress(batchId).state === 'done' && unsent(c) === 0;
        },
        60_000,
        () => `settled (${JSON.stringify(session.bulk.progress(batchId))}, unsent ${unsent(c)})`,
        200,
      );
      await clearFaults(sandbox!);
      await expectOneOrderPerProtocol(sandbox!, c.store, batchId, 'ahead-');
      const server = (await serverProtocols(sandbox!)).filter((p) =>
        p.customer.sourceId.startsWith('ahead-'),
      );
      expect(server).toHaveLength(20);
      expect(new Set(ids.map((id) => c.store.protocols.get(id)!.serverId))).toEqual(
        new Set(server.map((p) => p.id)),
      );
    },
  );

  it(
    'set back an hour while running: a saved edit and an in-doubt create wait no longer',
    { timeout: 60_000 },
    async () => {
      const wall = wallClock();
      core = await openCore(wall);
      const c = core;
      const session = c.session!;
      const local = session.protocols.create(protocolFor('back-1'));
      await waitFor(async () => {
        await session.sync.syncNow();
        return c.store.protocols.get(local.localId)?.syncState === 'synced';
      }, 20_000);
      await setFaults(sandbox!, {
        dropResponseRate: 1,
        count: 1,
        match: { method: 'POST', path: '/v1/orders' },
      });
      const batchId = createOrder(
        { store: c.store, bulk: session.bulk },
        { protocolLocalId: local.localId },
      );
      await waitFor(() => c.store.jobs.counts({ batchId }).in_doubt === 1, 20_000, 'in doubt');

      wall.set(-HOUR);
      session.protocols.update(local.localId, protocolFor('back-1', { daysSupply: 60 }));
      // One reconciliation interval (15 s at most) and a little: an hour would time out.
      await waitFor(() => c.store.protocols.get(local.localId)?.syncState === 'synced', 20_000);
      await waitFor(() => session.bulk.progress(batchId).state === 'done', 20_000);
      expect(session.bulk.progress(batchId)).toMatchObject({ created: 1, rejected: 0 });
      const orders = (await allServerOrders(sandbox!)).filter(
        (o) => o.customer.sourceId === 'back-1',
      );
      expect(orders).toHaveLength(1);
      const [server] = (await serverProtocols(sandbox!)).filter(
        (p) => p.customer.sourceId === 'back-1',
      );
      expect(server?.daysSupply).toBe(60);
    },
  );

  it(
    'set back an hour while the app was closed: the changes saved before are sent at start',
    { timeout: 60_000 },
    async () => {
      const place = newPlace();
      core = await openCore(wallClock(HOUR), place);
      const first = core.session!;
      // Nothing is sent any more; the change saved now waits in the store, due on that run's clock.
      await first.jobs.stop();
      const local = first.protocols.create(protocolFor('closed-1'));
      await core.close();

      core = await reopen(wallClock(0), place);
      const c = core;
      expect(c.session).not.toBeNull();
      // The longest wait between two tries is a minute; an hour would time out.
      await waitFor(() => c.store.protocols.get(local.localId)?.syncState === 'synced', 20_000);
    },
  );
});
