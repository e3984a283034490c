/**
 * The first start of the version that encrypts the stores, on a data folder an earlier version
 * left plain: `encryptStoreFile` on one store (time, size, progress), the whole first start until
 * `ready`, and opening the store encrypted against plain. Every row must be there afterwards: the
 * bench exits 1 if not. Method: bench/README.md, "First-start encryption of a store".
 *
 *   npx tsx bench/store-encryption.ts [--count 100000] [--drafts 1000] [--opens 5]
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3-multiple-ciphers';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Redactor, silentLogger } from '@main/logging';
import { applyKey, storeFileKind, type StoreKey } from '@main/db/cipher';
import { encryptStoreFile } from '@main/db/encrypt-file';
import { APP_STORE_FILE, connectionStoreFile } from '@main/db';
import { Startup } from '@main/startup';
import { profileStoreFiles } from '@main/stores/profile-files';
import { startSandbox } from '@sandbox/index';
import type { StartupView } from '@shared/startup-views';
import { protocolFor } from '@test/support/bulk';
import { asBeforeEncryption, profileKeyOf } from '@test/support/plain-profile';
import { BENCH_KEY, benchStore, costLine, costParts, inTurn, type StoreMode } from './bench-stores';
import { goalOf } from './goals';
import { generateProtocols, ordersOf } from './protocol-search-data';
import { recordFigure } from './report';
import { median, positiveIntegers } from './stats';

const GOAL_MS = goalOf('encryption.first-start-100k').target * 1000;
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    drafts: { type: 'string', default: '1000' },
    opens: { type: 'string', default: '5' },
  },
});
const { count, drafts, opens } = positiveIntegers({
  count: values.count,
  drafts: values.drafts,
  opens: values.opens,
});

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Every table's row count (the FTS index's shadow tables included), read with `key` or plain. */
function rowCounts(file: string, key: StoreKey | null): Record<string, number> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (key) applyKey(db, key);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((name) => [
        name,
        db
          .prepare(`SELECT count(*) FROM "${name.replaceAll('"', '""')}"`)
          .pluck()
          .get() as number,
      ]),
    );
  } finally {
    db.close();
  }
}

/** The tables whose counts differ, as "table: before → after". */
function differences(before: Record<string, number>, after: Record<string, number>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names]
    .filter((n) => before[n] !== after[n])
    .map((n) => `${n}: ${before[n] ?? 'none'} → ${after[n] ?? 'none'}`);
}

interface Tick {
  at: number;
  done: number;
  total: number;
}

/**
 * What the progress bar did between `start` and `end`: how many updates it was sent, how many
 * moved it (a larger `done` than the update before), and the longest time it stood still (from
 * the start to its first move, between two moves, or from the last move to the end).
 */
function progressOf(ticks: readonly Tick[], start: number, end: number) {
  const moves: number[] = [];
  let last = -1;
  for (const t of ticks) {
    if (t.done > last) moves.push(t.at);
    last = Math.max(last, t.done);
  }
  const marks = [start, ...moves, end];
  let maxGap = 0;
  let maxGapAt = 0;
  for (let i = 1; i < marks.length; i++) {
    const gap = marks[i]! - marks[i - 1]!;
    if (gap > maxGap) {
      maxGap = gap;
      maxGapAt = marks[i - 1]! - start;
    }
  }
  return { updates: ticks.length, moves: moves.length, maxGap, maxGapAt };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-encryption-'));
const dataDir = path.join(dir, 'profile');
let failed = false;
try {
  // --- A data folder as an earlier version left it ---------------------------------------------
  // A partner connection made by this version (its secret in the keychain), then every store
  // decrypted and profile.json removed: the folder of a version before encryption.
  const credentials = new MemoryCredentialStore();
  const startupOptions = {
    dataDir,
    credentials,
    log: silentLogger,
    redactor: new Redactor(),
  };
  const partner = await startSandbox({ port: 0, autoAdvance: 0 }, { log: () => undefined });
  let connectionId: string;
  try {
    const setup = Startup.begin(startupOptions);
    const core = await setup.ready;
    connectionId = (
      await core.connect(
        {
          kind: 'partner-sandbox',
          label: 'Bench partner',
          baseUrl: partner.baseUrl,
          authUrl: partner.authUrl,
          clientId: partner.clientId,
        },
        partner.clientSecret,
      )
    ).id;
    await setup.close();
  } finally {
    await partner.close();
  }
  asBeforeEncryption(dataDir, await profileKeyOf(dataDir, credentials));
  const plainFile = connectionStoreFile(dataDir, connectionId);

  // The connection's store, written plain as the earlier version wrote it.
  const seedStart = performance.now();
  const protocols = generateProtocols(count);
  const orders = ordersOf(protocols);
  const seed = benchStore(plainFile, 'plain');
  try {
    seed.protocols.upsertManyFromServer(protocols);
    seed.orders.upsertMany(orders, 'pulled');
    seed.transaction(() => {
      for (let i = 0; i < drafts; i++) seed.protocols.createDraft(protocolFor(`draft-${i}`));
    });
  } finally {
    seed.close();
  }
  const seedMs = performance.now() - seedStart;
  const size = statSync(plainFile).size;
  const before = rowCounts(plainFile, null);
  const appBefore = rowCounts(path.join(dataDir, APP_STORE_FILE), null);
  console.log(
    `A plain connection store of ${count.toLocaleString('en')} protocols, ${orders.length.toLocaleString('en')} orders and ` +
      `${drafts.toLocaleString('en')} drafts with their pending creates (${before.jobs?.toLocaleString('en')} jobs): ` +
      `${mb(size)}, written in ${s(seedMs)}`,
  );
  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );

  // Two copies of it, for the file alone (1) and for the opens (3); the folder's is left for (2).
  const alone = path.join(dir, 'alone', 'store.db');
  const plainCopy = path.join(dir, 'alone', 'store-plain.db');
  mkdirSync(path.dirname(alone));
  copyFileSync(plainFile, alone);
  copyFileSync(plainFile, plainCopy);

  // --- 1. encryptStoreFile alone -----------------------------------------------------------------
  const fileTicks: Tick[] = [];
  const fileStart = performance.now();
  await encryptStoreFile(alone, {
    key: BENCH_KEY,
    onProgress: (done, total) => fileTicks.push({ at: performance.now(), done, total }),
  });
  const fileMs = performance.now() - fileStart;
  const fileProgress = progressOf(fileTicks, fileStart, fileStart + fileMs);
  const aloneAfter = rowCounts(alone, BENCH_KEY);
  const aloneLost = differences(before, aloneAfter);
  console.log(
    `1. encryptStoreFile of the ${mb(size)} store alone: ${s(fileMs)} (${mb((size / fileMs) * 1000)}/s), ` +
      `encrypted file ${mb(statSync(alone).size)}; progress: ${fileProgress.updates} updates, the bar moved ${fileProgress.moves} times, ` +
      `longest still ${s(fileProgress.maxGap)} (from ${s(fileProgress.maxGapAt)}); ` +
      `rows: ${aloneLost.length === 0 ? 'every table as before' : `DIFFERENT: ${aloneLost.join('; ')}`}`,
  );
  if (aloneLost.length > 0) failed = true;

  // --- 2. The whole first start ----------------------------------------------------------------
  const views: { at: number; view: StartupView }[] = [];
  const startAt = performance.now();
  const startup = Startup.begin(startupOptions);
  startup.onChange((view) => views.push({ at: performance.now(), view }));
  let readyAt = 0;
  let opened: Record<string, number> = {};
  try {
    const core = await Promise.race([
      startup.ready,
      startup
        .settled()
        .then((view) =>
          view.phase === 'ready'
            ? startup.ready
            : Promise.reject(new Error(`the first start stopped: ${JSON.stringify(view)}`)),
        ),
    ]);
    readyAt = performance.now();
    opened = {
      protocols: core.store.protocols.count(),
      orders: core.store.orders.count(),
    };
  } finally {
    await startup.close();
  }
  if (process.env.BENCH_DEBUG)
    for (const v of views)
      console.log(
        `   ${s(v.at - startAt)} ${v.view.phase} ${v.view.phase === 'encrypting' ? `${v.view.fileNumber}/${v.view.files} ${v.view.done}/${v.view.total}` : ''}`,
      );
  const encrypting = views.filter((v) => v.view.phase === 'encrypting');
  const firstEncrypting = encrypting[0]?.at ?? readyAt;
  // The last update (the last file's 100%) ends the encryption; the Core then opens, the bar
  // still shown, full, until ready.
  const lastTick = encrypting.at(-1)?.at ?? readyAt;
  const ticks = encrypting.flatMap(({ at, view }) =>
    view.phase === 'encrypting' ? [{ at, done: view.done, total: view.total }] : [],
  );
  const startProgress = progressOf(ticks, firstEncrypting, readyAt);
  const firstStartMs = readyAt - startAt;
  const files = new Set(encrypting.map((v) => (v.view.phase === 'encrypting' ? v.view.file : '')));
  const after = rowCounts(plainFile, await profileKeyOf(dataDir, credentials));
  // The Core's open adds one entry to the activity record: the store's encryption, by the app.
  const lost = differences({ ...before, activity: (before.activity ?? 0) + 1 }, after);
  const appLost = differences(
    appBefore,
    rowCounts(path.join(dataDir, APP_STORE_FILE), await profileKeyOf(dataDir, credentials)),
  );
  const stillPlain = profileStoreFiles(dataDir).filter((f) => storeFileKind(f) === 'plain');
  console.log(
    `2. Startup.begin to ready over the plain data folder (${files.size} files, ${mb(ticks.at(-1)?.total ?? 0)} of work): ${s(firstStartMs)}; ` +
      `goal < ${s(GOAL_MS)}: ${firstStartMs < GOAL_MS ? 'PASS' : 'ABOVE GOAL'}`,
  );
  console.log(
    `   before the bar ${s(firstEncrypting - startAt)}, encrypting ${s(lastTick - firstEncrypting)}, ` +
      `then opening the Core ${s(readyAt - lastTick)}; the bar: ${startProgress.updates} updates, ` +
      `moved ${startProgress.moves} times, longest still ${s(startProgress.maxGap)} ` +
      `(from ${s(startProgress.maxGapAt)} after the bar appeared)`,
  );
  console.log(
    `   the Core opened ${opened.protocols?.toLocaleString('en')} protocols and ${opened.orders?.toLocaleString('en')} orders; ` +
      `rows: connection store ${lost.length === 0 ? 'every table as before' : `DIFFERENT: ${lost.join('; ')}`}, ` +
      `app.db ${appLost.length === 0 ? 'every table as before' : `DIFFERENT: ${appLost.join('; ')}`}; ` +
      `${stillPlain.length === 0 ? 'no store file left plain' : `STILL PLAIN: ${stillPlain.join(', ')}`}`,
  );
  if (lost.length > 0 || appLost.length > 0 || stillPlain.length > 0) failed = true;
  if (opened.protocols !== before.protocols || opened.orders !== before.orders) failed = true;

  // --- 3. Opening the store, encrypted against plain --------------------------------------------
  const openFiles: Record<StoreMode, string> = { encrypted: alone, plain: plainCopy };
  const openTimes: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
  for (let i = 0; i <= opens; i++) {
    for (const mode of inTurn(i)) {
      const t = performance.now();
      benchStore(openFiles[mode], mode, { quickCheck: true }).close();
      if (i > 0) openTimes[mode].push(performance.now() - t); // the first of each warms the OS cache
    }
  }
  const openMs = { encrypted: median(openTimes.encrypted), plain: median(openTimes.plain) };
  console.log(
    `3. Opening the store with quick_check, median of ${opens} each, in turn: ${costLine(openMs.encrypted, openMs.plain)}`,
  );

  const detail = `${count.toLocaleString('en')} protocols, ${orders.length.toLocaleString('en')} orders, ${drafts.toLocaleString('en')} drafts; ${mb(size)}`;
  recordFigure({
    id: 'encryption.first-start-100k',
    value: firstStartMs / 1000,
    detail: `${detail}; encrypting ${s(lastTick - firstEncrypting)}, then opening the Core ${s(readyAt - lastTick)}`,
  });
  recordFigure({
    id: 'encryption.encrypt-file-100k',
    value: fileMs / 1000,
    detail: `${detail}; ${mb((size / fileMs) * 1000)}/s`,
  });
  recordFigure({
    id: 'encryption.progress-max-gap',
    value: startProgress.maxGap / 1000,
    detail: `the first start's bar: ${startProgress.updates} updates, moved ${startProgress.moves} times; the longest still from ${s(startProgress.maxGapAt)} after it appeared, until ready`,
  });
  recordFigure({
    id: 'encryption.open-cost',
    value: openMs.encrypted / openMs.plain,
    parts: costParts(openMs.encrypted, openMs.plain),
    detail: `${detail}; median of ${opens} opens each, in turn`,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) {
  console.error('BENCHMARK FAILED: rows differ after the encryption, or a store was left plain');
  process.exit(1);
}
