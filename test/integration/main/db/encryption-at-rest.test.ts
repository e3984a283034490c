import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StartupView } from '@shared/startup-views';
import type { ProtocolInput } from '@shared/protocol-input';
import {
  KeytarCredentialStore,
  MemoryCredentialStore,
  type CredentialStore,
} from '@main/connections/keychain';
import type { Core } from '@main/core';
import { createIpcDispatcher } from '@main/ipc/dispatch';
import { createFileLogger, Redactor, type FileLogger } from '@main/logging';
import { Startup } from '@main/startup';
import { opensWithKey, storeFileKind, StoreKey } from '@main/db/cipher';
import { encryptingName } from '@main/db/encrypt-file';
import { connectionStoreFile } from '@main/db/store-files';
import { EMBEDDED_CONNECTION_ID } from '@main/embedded-sandbox';
import { profileStoreFiles } from '@main/stores/profile-files';
import { PROFILE_FILE, storeKeyAccount } from '@main/stores/profile-key';
import { spawnFixture } from '@test/support/child-process';
import {
  asBeforeEncryption,
  digests,
  filesContaining,
  filesUnder,
} from '@test/support/plain-profile';
import { validOrderBody } from '@test/support/sandbox';
import { mountSmallDisk } from '@test/support/small-disk';
import { damagePages, pagesOf } from '@test/support/store-damage';
import { waitFor } from '@test/support/wait';

/**
 * Every store file of a data folder is encrypted, with a key kept in the keychain (the real
 * Secret Service here): nothing a user saved is readable in the folder; the plain stores of the
 * version before are encrypted at the first start, losing nothing even when killed half-way; a
 * missing or wrong key keeps the files and says so.
 */

/** Names that appear nowhere in the app: found in a file, they came from a patient. */
const PATIENTS = [
  { sourceId: 'enc-0001', firstName: 'Zephyrine', lastName: 'Quillfeather' },
  { sourceId: 'enc-0002', firstName: 'Bartholomew', lastName: 'Snodgrassini' },
];
const ADDRESS = '742 Evergreen Terrace';

let dataDir: string;
let service: string;
let credentials: CredentialStore;
const open: { startup: Startup; log: FileLogger }[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'order-desk-encryption-'));
  service = `Order Desk encryption test ${randomBytes(4).toString('hex')}`;
  credentials = new KeytarCredentialStore(service);
});

afterEach(async () => {
  for (const { startup, log } of open.splice(0)) {
    await startup.close();
    await log.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the app on the data folder, as Electron and the browser host do. */
function start(creds: CredentialStore = credentials) {
  const redactor = new Redactor();
  const log = createFileLogger({ dir: join(dataDir, 'logs'), redactor, level: 'debug' });
  const startup = Startup.begin({ dataDir, credentials: creds, log, redactor });
  open.push({ startup, log });
  const phases: StartupView[] = [];
  startup.onChange((view) => phases.push(view));
  return { startup, phases };
}

async function stop(startup: Startup): Promise<void> {
  const index = open.findIndex((o) => o.startup === startup);
  const [entry] = open.splice(index, 1);
  await startup.close();
  await entry?.log.close();
}

async function readyCore(startup: Startup): Promise<Core> {
  const view = await startup.settled();
  expect(view).toEqual({ phase: 'ready' });
  return startup.ready;
}

/** What a clinic user does: the local sandbox, two patients' protocols, synced, one ordered. */
async function useTheApp(startup: Startup): Promise<Core> {
  const core = await readyCore(startup);
  const ipc = createIpcDispatcher({
    startup,
    host: { transport: 'electron', version: '0', platform: 'linux', openExternal: async () => {} },
    log: createFileLogger({ dir: join(dataDir, 'logs'), redactor: new Redactor() }),
  });
  const call = async (channel: string, args: unknown) => {
    const result = await ipc.dispatch(channel, args);
    if (!result.ok) throw new Error(`${channel}: ${JSON.stringify(result.error)}`);
    return result.value as never;
  };
  await call('connections.useEmbedded', {});
  const ids: string[] = [];
  for (const patient of PATIENTS) {
    const body = validOrderBody();
    const draft = {
      ...body,
      customer: {
        ...body.customer,
        ...patient,
        address: { ...body.customer.address, line1: ADDRESS },
      },
    } as ProtocolInput;
    ids.push(((await call('protocols.create', { draft })) as { localId: string }).localId);
  }
  await call('sync.now', {});
  const { batchId } = (await call('batches.submit', { protocolLocalIds: [ids[0]] })) as {
    batchId: string;
  };
  await waitFor(() => core.store.batches.get(batchId)?.state === 'done', 20_000, 'the order');
  return core;
}

/** What the connection's store holds, to compare before and after. */
function holdings(core: Core) {
  return {
    protocols: core.store.protocols.count(),
    orders: core.store.orders.count({}),
    batches: core.store.batches.list().length,
    connections: core.listConnections().length,
  };
}

const patientNamesIn = (dir: string) =>
  [...PATIENTS.flatMap((p) => [p.firstName, p.lastName]), ADDRESS].flatMap((name) =>
    filesContaining(dir, name).map((file) => `${name} in ${file}`),
  );

describe('encryption at rest', () => {
  it('no patient name or address in any file of the data folder, the WAL included, open or closed', async () => {
    const { startup } = start();
    await useTheApp(startup);
    // Open: the connection's and the sandbox's write-ahead logs hold the newest pages.
    expect(filesUnder(dataDir).some((f) => f.endsWith('-wal'))).toBe(true);
    expect(patientNamesIn(dataDir)).toEqual([]);
    await stop(startup);
    expect(patientNamesIn(dataDir)).toEqual([]);
    for (const file of profileStoreFiles(dataDir).filter(existsSync))
      expect(storeFileKind(file), file).toBe('encrypted');
    // The key is in the keychain, never in the folder.
    const key = StoreKey.parse(await credentials.get(storeKeyAccount(readProfileId(dataDir))));
    expect(filesContaining(dataDir, key)).toEqual([]);
  });

  it('encrypts the plain stores of the version before at the first start, with progress, losing nothing', async () => {
    const first = start();
    const before = holdings(await useTheApp(first.startup));
    await stop(first.startup);
    const key = await keyOf(dataDir);
    const plain = asBeforeEncryption(dataDir, key);
    expect(plain.map((f) => basename(f)).sort()).toEqual(['app.db', 'embedded.db', 'sandbox.db']);
    expect(patientNamesIn(dataDir).length).toBeGreaterThan(0);

    const { startup, phases } = start();
    const core = await readyCore(startup);
    expect(holdings(core)).toEqual(before);
    const encrypting = phases.filter((p) => p.phase === 'encrypting');
    expect(new Set(encrypting.map((p) => p.file))).toEqual(new Set(plain));
    const done = encrypting.map((p) => p.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(encrypting.at(-1)).toMatchObject({ fileNumber: 3, files: 3 });
    // The connection's activity record says, once, that the app encrypted it.
    const entries = core.store.activity.page({ action: 'store-encrypted' }, 10, 0);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'store-encrypted',
      subjects: { connection: EMBEDDED_CONNECTION_ID },
      staff: null,
    });
    expect(Date.parse(entries[0]!.detail.encryptedAt!)).toBeLessThanOrEqual(Date.now());
    const notes = core.store.db.prepare("SELECT count(*) FROM settings WHERE key LIKE 'store.%'");
    expect(notes.pluck().get()).toBe(0);
    await stop(startup);
    expect(patientNamesIn(dataDir)).toEqual([]);
    expect(filesUnder(dataDir).filter((f) => f.includes('.encrypting'))).toEqual([]);
  });

  for (const step of ['self-contained', 'copied', 'during the rekey', 'encrypted', 'swapped']) {
    it(`a SIGKILL ${step === 'during the rekey' ? step : `after the step "${step}"`} loses nothing: the next start finishes`, async () => {
      const first = start();
      const before = holdings(await useTheApp(first.startup));
      await stop(first.startup);
      const key = await keyOf(dataDir);
      // The first start of this version made the key, then was killed while encrypting.
      const profile = readFileSync(join(dataDir, PROFILE_FILE));
      asBeforeEncryption(dataDir, key);
      writeFileSync(join(dataDir, PROFILE_FILE), profile);
      const store = connectionStoreFile(dataDir, EMBEDDED_CONNECTION_ID);

      const child = spawnFixture('encrypt-child.ts', [
        store,
        key,
        step === 'during the rekey' ? 'none' : step,
      ]);
      if (step === 'during the rekey') {
        const journal = `${encryptingName(store)}-journal`;
        await waitFor(
          () => existsSync(journal) && statSync(journal).size > 0,
          20_000,
          'the rekey began',
          1,
        );
        child.kill();
      }
      expect((await child.exit).signal, child.output()).toBe('SIGKILL');
      const leftover = existsSync(encryptingName(store));
      expect(storeFileKind(store)).toBe(step === 'swapped' ? 'encrypted' : 'plain');

      const { startup } = start();
      const core = await readyCore(startup);
      expect(holdings(core)).toEqual(before);
      await stop(startup);
      expect(leftover || step === 'swapped' || step === 'self-contained').toBe(true);
      expect(existsSync(encryptingName(store))).toBe(false);
      expect(patientNamesIn(dataDir)).toEqual([]);
    });
  }

  it('a disk too full to encrypt: said, nothing half done, no copy left; with room, it finishes', async (context) => {
    const disk = mountSmallDisk(32);
    if ('skip' in disk) return context.skip(disk.skip);
    const home = dataDir;
    dataDir = join(disk.dir, 'data');
    try {
      const first = start();
      const before = holdings(await useTheApp(first.startup));
      await stop(first.startup);
      const key = await keyOf(dataDir);
      const profile = readFileSync(join(dataDir, PROFILE_FILE));
      const plain = asBeforeEncryption(dataDir, key);
      writeFileSync(join(dataDir, PROFILE_FILE), profile);
      const unchanged = digests(plain);

      // Room for the small stores' copies, not for the connection's: its copy fails half-way.
      const connection = connectionStoreFile(dataDir, EMBEDDED_CONNECTION_ID);
      const { bavail, bsize } = statfsSync(disk.dir);
      const ballast = join(disk.dir, 'ballast');
      writeFileSync(ballast, Buffer.alloc(bavail * bsize - statSync(connection).size / 2));
      const { startup } = start();
      const failed = await startup.settled();
      expect(failed).toMatchObject({ phase: 'failed' });
      expect(failed.phase === 'failed' && failed.message).toMatch(
        /the disk is full\. Nothing was changed; free some space on that disk, then try again\./,
      );
      // Each store is whole: encrypted (those that fitted) or as it was (the connection's).
      const now = digests(plain);
      for (const file of plain)
        if (now[file] !== unchanged[file]) expect(opensWithKey(file, key), file).toBe(true);
      expect(now[connection]).toBe(unchanged[connection]);
      expect(filesUnder(dataDir).filter((f) => f.includes('.encrypting'))).toEqual([]);

      rmSync(ballast);
      startup.retry();
      expect(holdings(await readyCore(startup))).toEqual(before);
      await stop(startup);
      for (const file of plain) expect(storeFileKind(file), file).toBe('encrypted');
    } finally {
      for (const { startup, log } of open.splice(0)) {
        await startup.close();
        await log.close();
      }
      dataDir = home;
      disk.unmount();
    }
  });

  it('a key missing from the keychain: nothing is touched, the start says which files; restored, they open', async () => {
    const first = start();
    const before = holdings(await useTheApp(first.startup));
    await stop(first.startup);
    const account = storeKeyAccount(readProfileId(dataDir));
    const key = await keyOf(dataDir);
    await credentials.delete(account);
    const files = profileStoreFiles(dataDir).filter(existsSync);
    const unchanged = digests(files);

    const { startup } = start();
    const locked = await startup.settled();
    expect(locked).toMatchObject({
      phase: 'locked',
      reason: 'key-missing',
      files: expect.arrayContaining(files),
      dataDir,
      canStartFresh: true,
    });
    expect(locked.phase === 'locked' && locked.message).toMatch(/not in this computer’s keychain/);
    expect(startup.core).toBeNull();
    expect(digests(files)).toEqual(unchanged);
    // A second look changes nothing either: no new key is made while the files need the old one.
    startup.retry();
    expect(await startup.settled()).toMatchObject({ phase: 'locked', reason: 'key-missing' });
    expect(await credentials.get(account)).toBeNull();

    await credentials.set(account, key);
    startup.retry();
    expect(holdings(await readyCore(startup))).toEqual(before);
  });

  it('a wrong key: the files are kept as they are and named; starting fresh moves them aside', async () => {
    const first = start();
    await useTheApp(first.startup);
    await stop(first.startup);
    const account = storeKeyAccount(readProfileId(dataDir));
    await credentials.set(account, randomBytes(32).toString('hex'));
    const files = profileStoreFiles(dataDir).filter(existsSync);
    const unchanged = digests(files);

    const { startup } = start();
    expect(await startup.settled()).toMatchObject({
      phase: 'locked',
      reason: 'wrong-key',
      files: expect.arrayContaining(files),
      canStartFresh: true,
    });
    expect(digests(files)).toEqual(unchanged);

    await startup.startFresh();
    const core = await readyCore(startup);
    expect(core.listConnections()).toEqual([]);
    const kept = filesUnder(dataDir).filter((f) => /\.unreadable-\d{8}-\d{6}\.db$/.test(f));
    expect(kept).toHaveLength(files.length);
    expect(Object.values(digests(kept)).sort()).toEqual(Object.values(unchanged).sort());
  });

  it('--memory-keychain: a later run cannot open the data of an earlier one, and says why', async () => {
    const memory = new MemoryCredentialStore();
    const first = start(memory);
    await useTheApp(first.startup);
    await stop(first.startup);

    const { startup } = start(new MemoryCredentialStore());
    const view = await startup.settled();
    expect(view).toMatchObject({ phase: 'locked', reason: 'key-missing' });
    expect(view.phase === 'locked' && view.message).toMatch(/in memory for one run only/);
  });

  it('a keychain that cannot be reached: nothing is moved or made, and the start says so', async () => {
    const first = start();
    await useTheApp(first.startup);
    await stop(first.startup);
    const files = profileStoreFiles(dataDir).filter(existsSync);
    const unchanged = digests(files);
    const broken: CredentialStore = {
      kind: 'system-keychain',
      get: async () => {
        throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY');
      },
      set: async () => undefined,
      delete: async () => false,
    };
    const { startup } = start(broken);
    expect(await startup.settled()).toMatchObject({
      phase: 'locked',
      reason: 'keychain',
      canStartFresh: false,
      files: [],
    });
    expect(await startup.startFresh()).toMatchObject({ phase: 'locked', reason: 'keychain' });
    expect(digests(files)).toEqual(unchanged);
  });

  it('a plain store damaged before it could be encrypted: what can be read goes into an encrypted one', async () => {
    const first = start();
    await useTheApp(first.startup);
    await stop(first.startup);
    const key = await keyOf(dataDir);
    asBeforeEncryption(dataDir, key);
    const store = connectionStoreFile(dataDir, EMBEDDED_CONNECTION_ID);
    const leaves = pagesOf(store, 'order_status_changes', 'leaf', 'plain');
    damagePages(
      store,
      leaves.slice(0, 1).map((p) => p.page),
    );

    const { startup } = start();
    const core = await readyCore(startup);
    expect(core.notices()).toEqual([
      expect.objectContaining({ kind: 'store-recovered', storeFile: store }),
    ]);
    expect(core.store.protocols.count()).toBe(PATIENTS.length);
    await stop(startup);
    expect(storeFileKind(store)).toBe('encrypted');
    expect(opensWithKey(store, await keyOf(dataDir))).toBe(true);
    const kept = readdirSync(join(dataDir, 'connections')).filter((f) => f.includes('.damaged-'));
    expect(kept).toHaveLength(1);
  });
});

function readProfileId(dir: string): string {
  return (JSON.parse(readFileSync(join(dir, PROFILE_FILE), 'utf8')) as { id: string }).id;
}

async function keyOf(dir: string): Promise<StoreKey> {
  return StoreKey.parse(await credentials.get(storeKeyAccount(readProfileId(dir))));
}
