import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core } from '@main/core';
import { createIpcDispatcher } from '@main/ipc/dispatch';
import { createFileLogger, Redactor, type FileLogger } from '@main/logging';
import type { IpcResult, OrderDeskApi } from '@shared/ipc';
import { createOrderDeskApi } from '@shared/ipc-bridge';
import { expectOneOrderPerProtocol, protocolFor, serverOrdersBySourceId } from '@test/support/bulk';
import { spawnFixture, type Child } from '@test/support/child-process';
import { setFaults } from '@test/support/client-harness';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { mountSmallDisk } from '@test/support/small-disk';
import { liveChanges, serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { connectSocketTransport, type SocketTransport } from '@test/support/ws-client';
import { TEST_KEY } from '@test/support/store-key';
import { openedStartup } from '@main/startup';

/**
 * A full disk: a save gets a clear message and leaves nothing half written, nothing saved is
 * lost, a batch carries on once there is room, and neither the app nor the browser host (its log
 * on the same disk) goes down. On a real small disk (tmpfs) when one can be mounted; SQLite's
 * own limit on a database's size (max_page_count) gives the same SQLITE_FULL everywhere.
 */

let sandbox: TestSandbox;
let credentials: MemoryCredentialStore;
const cleanup: (() => Promise<void> | void)[] = [];

beforeEach(async () => {
  sandbox = await startTestSandbox();
  credentials = new MemoryCredentialStore();
});

const children: Child[] = [];

afterEach(async () => {
  // First: a child that hangs must not outlive the test.
  for (const child of children.splice(0)) child.kill();
  for (const step of cleanup.splice(0).reverse()) await step();
  await sandbox.close();
});

const partner = () => ({
  kind: 'partner-sandbox' as const,
  label: 'Clinic sandbox',
  baseUrl: sandbox.baseUrl,
  authUrl: sandbox.authUrl,
  clientId: sandbox.clientId,
});

/** Core on `dataDir`, logging to its logs folder (on the same disk), connected to the sandbox. */
async function connectedCore(dataDir: string): Promise<{
  core: Core;
  ipc: OrderDeskApi;
  log: FileLogger;
  trouble: string[];
}> {
  const redactor = new Redactor();
  const trouble: string[] = [];
  const log = createFileLogger({
    dir: join(dataDir, 'logs'),
    redactor,
    onTrouble: (line) => trouble.push(line),
  });
  const core = await Core.open({
    key: TEST_KEY,
    dataDir,
    credentials,
    log,
    redactor,
    tuning: { inDoubtGraceMs: { protocol: 200, order: 200 }, probeBackoffMs: 100 },
  });
  cleanup.push(async () => {
    await core.close();
    await log.close();
  });
  await core.connect(partner(), sandbox.clientSecret);
  // The window's calls, through the dispatcher and the bridge, as in the app.
  const dispatcher = createIpcDispatcher({
    startup: openedStartup(core),
    host: { transport: 'electron', version: '0', platform: 'linux', openExternal: async () => {} },
    log,
  });
  const ipc = createOrderDeskApi({
    invoke: (channel, args) => dispatcher.dispatch(channel, args),
    subscribe: () => () => undefined,
  });
  return { core, ipc, log, trouble };
}

const valueOf = <T>(result: IpcResult<T>): T => {
  if (!result.ok) throw new Error(`failed: ${JSON.stringify(result.error)}`);
  return result.value;
};

const serverSourceIds = async (prefix: string) =>
  (await serverProtocols(sandbox))
    .map((p) => p.customer.sourceId)
    .filter((s) => s.startsWith(prefix))
    .sort();

/**
 * The saves of the first test: one saved, one refused while full (with the words the user sees),
 * the same again once there is room. `fill` and `free` make the disk full and give room again.
 */
async function savesWhileFull(
  dataDir: string,
  prefix: string,
  fill: (core: Core) => void,
  free: (core: Core) => void,
): Promise<void> {
  const { core, ipc, trouble } = await connectedCore(dataDir);
  const saved = valueOf(await ipc.call('protocols.create', { draft: protocolFor(`${prefix}-1`) }));
  await waitFor(() => liveChanges(core.store) === 0, 10_000, 'the first draft unsent');
  // The log of writes (WAL) emptied, as after a start: the next write needs new room on disk.
  core.store.db.pragma('wal_checkpoint(TRUNCATE)');
  fill(core);

  // A write that fits in room the database already has still succeeds; the first that needs
  // more is refused (on a disk whose log was just emptied, that is the first one).
  const savedWhileFull: string[] = [];
  let refused: IpcResult<unknown> | null = null;
  for (let i = 0; i < 200 && !refused; i++) {
    const sourceId = `${prefix}-full-${i}`;
    const result = await ipc.call('protocols.create', { draft: protocolFor(sourceId) });
    if (result.ok) savedWhileFull.push(sourceId);
    else refused = result;
  }
  expect(refused).toEqual({
    ok: false,
    error: {
      kind: 'storage',
      message: expect.stringMatching(
        /^The disk is full: Order Desk could not save this\. Free some space on the disk that holds .*, then try again; nothing you saved before is lost\./,
      ),
      fieldErrors: [],
    },
  });
  expect(refused?.ok ? '' : refused?.error.message).toContain(core.dataDir);
  // The window is told, and shows it while it lasts.
  const state = valueOf(await ipc.call('app.state', {}));
  expect(state.storage).toMatchObject({ fault: 'full', dataDir: core.dataDir });
  // Nothing half written, nothing saved lost: the drafts saved, as they were, and no other.
  const expected = [`${prefix}-1`, ...savedWhileFull].sort();
  expect(
    core.store.protocols
      .matchingDrafts()
      .map((d) => d.customer.sourceId)
      .sort(),
  ).toEqual(expected);
  expect(saved.draft.daysSupply).toBe(30);

  free(core);
  const again = valueOf(await ipc.call('protocols.create', { draft: protocolFor(`${prefix}-2`) }));
  expect(again.draft.customer.sourceId).toBe(`${prefix}-2`);
  await waitFor(() => core.storageProblem === null, 10_000, 'the disk problem still shown');
  await waitFor(() => liveChanges(core.store) === 0, 15_000, 'the drafts unsent');
  expect(await serverSourceIds(prefix)).toEqual([...expected, `${prefix}-2`].sort());
  expect(trouble.join('\n')).not.toMatch(/TypeError|undefined/);
}

describe('a database that may not grow (SQLite max_page_count): the real SQLITE_FULL', () => {
  it('saves while full: a clear message, nothing half written, nothing saved lost, and saving again once there is room', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'order-desk-max-pages-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    let limit = 0;
    await savesWhileFull(
      dataDir,
      'maxpages',
      (core) => {
        // The file may not grow, and what room is left inside it is taken (a table of the
        // test's own), as a disk with no room left.
        const db = core.store.db;
        db.exec('CREATE TABLE test_filler (b BLOB)');
        limit = db.pragma('page_count', { simple: true }) as number;
        db.pragma(`max_page_count = ${limit}`);
        const insert = db.prepare('INSERT INTO test_filler VALUES (zeroblob(?))');
        for (const size of [3000, 500, 50, 1]) {
          for (;;) {
            try {
              insert.run(size);
            } catch (error) {
              expect((error as { code?: string }).code).toBe('SQLITE_FULL');
              break;
            }
          }
        }
      },
      (core) => {
        core.store.db.pragma(`max_page_count = ${limit * 4}`);
      },
    );
  });
});

const disk = mountSmallDisk(16);
afterAll(() => {
  if (!('skip' in disk)) disk.unmount();
});

const onSmallDisk = 'skip' in disk ? describe.skip : describe;
if ('skip' in disk) it.skip(`a real full disk: ${disk.skip}`, () => undefined);

onSmallDisk('a real full disk (a 16 MB tmpfs)', () => {
  const small = disk as Exclude<typeof disk, { skip: string }>;
  const folder = (name: string) => {
    const dir = join(small.dir, name);
    mkdirSync(dir);
    cleanup.push(() => {
      small.free();
      rmSync(dir, { recursive: true, force: true });
    });
    return dir;
  };

  it('saves while full: a clear message, nothing half written, nothing saved lost, the log goes on', async () => {
    const dataDir = folder('saves');
    await savesWhileFull(
      dataDir,
      'tmpfs',
      () => small.fill(),
      () => small.free(),
    );
  });

  it('a batch while the disk fills: it waits, and once there is room it finishes with one order per protocol', async () => {
    const { core, ipc, trouble } = await connectedCore(folder('batch'));
    const N = 16;
    const ids = core.store.transaction(() =>
      Array.from(
        { length: N },
        (_, i) => core.store.protocols.createDraft(protocolFor(`fullbatch-${i}`)).localId,
      ),
    );
    core.session!.jobs.wake();
    await waitFor(() => liveChanges(core.store) === 0, 15_000, 'the drafts unsent');
    core.store.db.pragma('wal_checkpoint(TRUNCATE)');
    // Slow creates: some are on the wire when the disk fills.
    await setFaults(sandbox, { latencyMs: 300, match: { method: 'POST', path: '/v1/orders' } });
    const { batchId } = valueOf(
      await ipc.call('batches.submit', { protocolLocalIds: ids, concurrency: 4 }),
    );
    await waitFor(
      async () => (await serverOrdersBySourceId(sandbox, 'fullbatch-')).size >= 2,
      15_000,
      'no order created before the disk filled',
    );
    small.fill();
    await waitFor(() => core.storageProblem?.fault === 'full', 15_000, 'the full disk unnoticed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(core.store.batches.get(batchId)?.state).toBe('running');

    small.free();
    await waitFor(
      () => core.store.batches.get(batchId)?.state === 'done',
      60_000,
      () => `the batch did not finish: ${JSON.stringify(core.store.batches.progress(batchId))}`,
    );
    await expectOneOrderPerProtocol(sandbox, core.store, batchId, 'fullbatch-');
    await waitFor(() => core.storageProblem === null, 10_000, 'the disk problem still shown');
    // The log on the same disk may or may not have met the full disk (a few lines fit in what its
    // file already holds); if it did, it said so and writes again.
    if (trouble.length > 0) {
      expect(trouble[0]).toMatch(/cannot be written \(ENOSPC/);
      await waitFor(() => /is written again/.test(trouble.at(-1) ?? ''), 15_000);
    }
  }, 40_000);

  it('the browser host on a full disk: refuses the save with a clear message and keeps running (its log on that disk)', async () => {
    const dataDir = folder('browser-host');
    const child: Child = spawnFixture('data-dir-child.ts', ['browser-host', dataDir]);
    children.push(child);
    const line = await child.firstLine;
    if (!line) throw new Error(`the browser host did not start:\n${child.output()}`);
    const { origin, token } = JSON.parse(line) as { origin: string; token: string };
    const transport: SocketTransport = await connectSocketTransport(origin, token);
    cleanup.push(() => transport.close());
    const api = createOrderDeskApi(transport);
    valueOf(
      await api.call('connections.connect', { ...partner(), clientSecret: sandbox.clientSecret }),
    );
    valueOf(await api.call('protocols.create', { draft: protocolFor('hostfull-1') }));

    small.fill();
    const refused = await api.call('protocols.create', { draft: protocolFor('hostfull-2') });
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'storage', message: expect.stringMatching(/^The disk is full/) },
    });
    // The failure was logged to the full disk: the process said so, and still answers.
    await waitFor(
      () => /cannot be written \(ENOSPC/.test(child.output()),
      10_000,
      () => child.output(),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(child.child.exitCode).toBeNull();
    const state = valueOf(await api.call('app.state', {}));
    expect(state.storage?.fault).toBe('full');

    small.free();
    valueOf(await api.call('protocols.create', { draft: protocolFor('hostfull-2') }));
    await waitFor(
      async () => (await serverSourceIds('hostfull-')).length === 2,
      15_000,
      'the drafts did not reach the server',
    );
    expect(child.child.exitCode).toBeNull();
  });
});
