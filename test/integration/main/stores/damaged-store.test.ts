import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core } from '@main/core';
import { createIpcDispatcher } from '@main/ipc/dispatch';
import { Redactor, silentLogger } from '@main/logging';
import { connectionStoreFile } from '@main/db';
import { createLocalStore } from '@main/stores';
import type { StoreNotice } from '@shared/store-views';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { damagePages, garbage, pageBytes, pagesOf, sha256 } from '@test/support/store-damage';
import { protocolRequest } from '@test/support/store-fixtures';
import { liveChanges, serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { TEST_KEY } from '@test/support/store-key';
import { repoFile } from '@test/support/repo-files';
import { openedStartup } from '@main/startup';

/**
 * A damaged store is found, kept and recovered: real files damaged as disks damage them (pages
 * overwritten in the middle, a file cut short, another file in its place), opened through Core,
 * and what could be read is sent to a real sandbox, exactly once.
 */

const DRAFTS = 300;
const tag = (i: number) => `dmg-${String(i).padStart(4, '0')}`;

let sandbox: TestSandbox;
let dataDir: string;
let credentials: MemoryCredentialStore;
let file: string;
const cores: Core[] = [];

const openCore = async () => {
  const core = await Core.open({
    key: TEST_KEY,
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
    // An in-doubt change (its job lost with the damage) is reconciled soon, not after 30 s.
    tuning: { inDoubtGraceMs: { protocol: 200, order: 200 }, probeBackoffMs: 100 },
  });
  cores.push(core);
  return core;
};

beforeEach(async () => {
  sandbox = await startTestSandbox();
  dataDir = mkdtempSync(join(tmpdir(), 'order-desk-damaged-'));
  credentials = new MemoryCredentialStore();
  // A clinic connected to its partner sandbox...
  const first = await openCore();
  const connection = await first.connect(
    {
      kind: 'partner-sandbox',
      label: 'Clinic sandbox',
      baseUrl: sandbox.baseUrl,
      authUrl: sandbox.authUrl,
      clientId: sandbox.clientId,
    },
    sandbox.clientSecret,
  );
  await first.close();
  cores.splice(0);
  file = connectionStoreFile(dataDir, connection.id);
  // ...drafted protocols that have not been sent yet when the app was closed.
  const store = createLocalStore(file, { key: TEST_KEY });
  store.protocols.createDrafts(
    Array.from({ length: DRAFTS }, (_, i) =>
      protocolRequest({ sourceId: tag(i), firstName: `Ada${i}`, lastName: 'Damaged' }),
    ),
  );
  store.close();
});

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close().catch(() => undefined);
  await sandbox.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The one notice shown, after checking that the damaged file is kept byte for byte. */
function theNotice(core: Core, damagedSha: string): StoreNotice {
  const notices = core.notices();
  expect(notices).toHaveLength(1);
  const notice = notices[0]!;
  expect(notice).toMatchObject({
    kind: 'store-recovered',
    connectionLabel: 'Clinic sandbox',
    storeFile: file,
  });
  expect(dirname(notice.keptAt)).toBe(dirname(file));
  expect(notice.keptAt).toMatch(/\.damaged-\d{8}-\d{6}\.db$/);
  expect(sha256(notice.keptAt)).toBe(damagedSha);
  return notice;
}

/** Every draft of the store reaches the server exactly once, and nothing else does. */
async function expectSentOnce(core: Core): Promise<string[]> {
  const local = core.store.protocols.matchingDrafts().map((d) => d.customer.sourceId);
  await waitFor(
    () => liveChanges(core.store) === 0,
    30_000,
    () => 'changes left unsent',
  );
  const onServer = (await serverProtocols(sandbox))
    .map((p) => p.customer.sourceId)
    .filter((s) => s.startsWith('dmg-'));
  expect(onServer.sort()).toEqual([...local].sort());
  return local;
}

describe('a damaged store', () => {
  it('with pages overwritten in the middle: kept, the user told, every readable draft recovered and sent once', async () => {
    const rows = pagesOf(file, 'protocols', 'leaf');
    const jobs = pagesOf(file, 'jobs', 'leaf');
    const index = pagesOf(file, 'protocols_by_change', 'leaf');
    // Two pages of protocol rows, one of jobs (their drafts survive: the change is restored, in
    // doubt), one of an index (rebuilt: no row is lost for it).
    const victims = [
      rows[Math.floor(rows.length / 3)]!,
      rows[Math.floor((2 * rows.length) / 3)]!,
      jobs[Math.floor(jobs.length / 2)]!,
    ];
    damagePages(file, [...victims.map((p) => p.page), index[Math.floor(index.length / 2)]!.page]);
    const damaged = sha256(file);
    const lostRows = victims[0]!.cells + victims[1]!.cells;

    const core = await openCore();
    const notice = theNotice(core, damaged);
    expect(notice.cause).toBe('damaged');
    expect(notice.recovered).toEqual({
      protocols: DRAFTS - lostRows,
      unsentChanges: DRAFTS - lostRows,
      unfinishedBatches: 0,
      orders: 0,
    });
    expect(notice.unreadable).toBe(lostRows + victims[2]!.cells);
    // What was connected and synced before is there too: the catalog came across.
    expect(core.store.products.count()).toBeGreaterThan(0);
    expect(await expectSentOnce(core)).toHaveLength(DRAFTS - lostRows);
  });

  it('cut short (truncated): kept, the user told, what was written before the cut recovered and sent once', async () => {
    const size = statSync(file).size;
    truncateSync(file, Math.floor((size * 0.6) / 4096) * 4096);
    const damaged = sha256(file);

    const core = await openCore();
    const notice = theNotice(core, damaged);
    expect(notice.cause).toBe('damaged');
    expect(notice.recovered.protocols).toBeGreaterThan(0);
    expect(notice.recovered.protocols).toBeLessThan(DRAFTS);
    expect(notice.unreadable).toBeGreaterThan(0);
    const sent = await expectSentOnce(core);
    expect(sent).toHaveLength(notice.recovered.protocols);
  });

  it('replaced by a foreign file (an image): kept as it was, the user told, a new store that works', async () => {
    copyFileSync(repoFile('resources', 'icon-source.png'), file);
    const damaged = sha256(file);

    const core = await openCore();
    const notice = theNotice(core, damaged);
    expect(notice).toMatchObject({
      cause: 'not-a-database',
      recovered: { protocols: 0, unsentChanges: 0, unfinishedBatches: 0, orders: 0 },
      unreadable: 0,
    });
    // The new store works: a draft made now is sent.
    core.session!.protocols.create(protocolRequest({ sourceId: 'dmg-new', firstName: 'New' }));
    expect(await expectSentOnce(core)).toEqual(['dmg-new']);
    // Told once: after a restart the notice is still shown (until dismissed), not repeated.
    await core.close();
    const again = await openCore();
    expect(again.notices().map((n) => n.id)).toEqual([notice.id]);
    expect(again.dismissNotice(notice.id)).toBe(true);
    expect(again.notices()).toEqual([]);
  });

  it('found damaged while in use: "Sync now" does not report success, the file is kept and recovered, the session goes on', async () => {
    const core = await openCore();
    expect(core.notices()).toEqual([]);
    const sent = await expectSentOnce(core);
    expect(sent).toHaveLength(DRAFTS);
    const dispatcher = createIpcDispatcher({
      startup: openedStartup(core),
      host: {
        transport: 'electron',
        version: '0',
        platform: 'linux',
        openExternal: async () => {},
      },
      log: silentLogger,
    });
    // Everything on disk in the main file, nothing in the page cache: then a disk fault.
    core.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = pagesOf(file, 'protocols', 'leaf');
    const victims = [rows[2]!, rows[Math.floor(rows.length / 2)]!];
    damagePages(
      file,
      victims.map((p) => p.page),
    );
    core.store.db.pragma('shrink_memory');

    const sync = await dispatcher.dispatch('sync.now', {});
    expect(sync).toMatchObject({
      ok: false,
      error: {
        kind: 'storage',
        message: expect.stringMatching(/found its local database damaged/),
      },
    });
    const notice = await waitFor(() => core.notices()[0], 20_000, 'no notice of the recovery');
    // Kept as the app last had it (closing it wrote its log in), the damage untouched.
    for (const { page } of victims) expect(pageBytes(notice.keptAt, page)).toEqual(garbage(page));
    expect(notice.recovered.protocols).toBe(DRAFTS - victims[0]!.cells - victims[1]!.cells);
    // The session runs on the new store; the next sync mirrors the lost rows back from the
    // server (they had reached it), and nothing is sent twice.
    await waitFor(() => core.session !== null, 10_000, 'no session after the recovery');
    expect(await dispatcher.dispatch('sync.now', {})).toEqual({ ok: true, value: null });
    expect(core.store.protocols.count()).toBe(DRAFTS);
    const onServer = (await serverProtocols(sandbox)).filter((p) =>
      p.customer.sourceId.startsWith('dmg-'),
    );
    expect(onServer).toHaveLength(DRAFTS);
    // Kept beside the new store, never deleted.
    expect(readdirSync(dirname(file)).filter((f) => /\.damaged-.*\.db$/.test(f))).toHaveLength(1);
    expect(existsSync(file)).toBe(true);
  });
});
