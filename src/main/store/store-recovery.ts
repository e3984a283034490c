import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { restoreLostChanges } from '../jobs/protocol/change-queue';
import type { Db } from './db';
import { createLocalStore, type LocalStore, type LocalStoreOptions } from './local-store';
import { jsonText, prepareCached } from './rows';
import { salvageTables, type SalvageReport } from './salvage';
import {
  asideName,
  deleteStoreFiles,
  moveAside,
  moveStoreFiles,
  orphanSideFiles,
} from './store-files';
import { storeFaultOf } from './store-faults';

/**
 * A damaged store is found, kept and recovered (docs/architecture.md, "A damaged store"):
 * PRAGMA quick_check at every open; on a failure, or a SQLITE_CORRUPT / SQLITE_NOTADB met later
 * (store-faults.ts), a fresh store is made at a temporary name, every row that can still be read
 * from the damaged file is copied into it (salvage.ts), the damaged file is moved aside under a
 * name with the time (never deleted), and the fresh store takes its place. Each step can be cut
 * short by a crash: the damaged file stays in place until the new one is complete, and a
 * complete new one left at its temporary name is put in place at the next open.
 */

/** What a recovery did, as kept in the recovered store until the app has told the user. */
export const RecoveryRecord = z.object({
  id: z.string(),
  at: z.int(),
  cause: z.enum(['damaged', 'not-a-database']),
  keptAt: z.string(),
  storeFile: z.string(),
  recovered: z.object({
    protocols: z.int(),
    unsentChanges: z.int(),
    unfinishedBatches: z.int(),
    orders: z.int(),
  }),
  unreadable: z.int(),
  /** Tables of which nothing could be read. */
  lostTables: z.array(z.string()),
});
export type RecoveryRecord = z.infer<typeof RecoveryRecord>;

/** A connection store's tables, parents before children (foreign keys). */
export const CONNECTION_TABLES = [
  'products',
  'shipping_methods',
  'sync_state',
  'protocols',
  'batches',
  'jobs',
  'orders',
  'order_status_changes',
  'possible_duplicates',
  // Left from the single-file layout; copied so that nothing readable is dropped.
  'connections',
  'settings',
] as const;

/** The key of the connection store's (otherwise unused) settings table holding the record. */
const RECORD_KEY = 'store.recovery';

const temporaryName = (file: string) => file.replace(/(\.db)?$/, '.recovering.db');

export interface RecoverFileOptions<S extends { db: Db; close(): void }> {
  now: number;
  /** Tables to copy, parents first. */
  tables: readonly string[];
  /** Creates the fresh store at `file`. */
  create(file: string): S;
  /** After the rows are in, before the fresh store is closed: repairs, and what to remember. */
  finish?(fresh: S, salvage: Salvaged): void;
}

export interface Salvaged {
  cause: 'damaged' | 'not-a-database';
  /** Where the damaged file is going to be kept. */
  keptAt: string;
  report: SalvageReport;
  unreadable: number;
  lostTables: string[];
}

/**
 * Recovers the damaged database at `file` (closed by the caller) into a fresh one at the same
 * path; the damaged file and its side files are kept under `<name>.damaged-<time>.db`.
 * `cause` is the error that showed the damage (it tells a foreign file from a damaged one).
 */
export function recoverStoreFile<S extends { db: Db; close(): void }>(
  file: string,
  cause: unknown,
  options: RecoverFileOptions<S>,
): Salvaged {
  const temp = temporaryName(file);
  deleteStoreFiles(temp); // a recovery of our own cut short: its partial copy goes
  const keptAt = asideName(file, 'damaged', options.now);
  const fresh = options.create(temp);
  let salvaged: Salvaged;
  try {
    salvaged = salvageFrom(file, fresh.db, options.tables, keptAt, cause);
    options.finish?.(fresh, salvaged);
  } finally {
    fresh.close();
  }
  moveStoreFiles(file, keptAt);
  moveStoreFiles(temp, file);
  return salvaged;
}

/** Reads what it can of the damaged file, opened read-only (its bytes stay as they are). */
function salvageFrom(
  file: string,
  target: Db,
  tables: readonly string[],
  keptAt: string,
  cause: unknown,
): Salvaged {
  const none = (kind: Salvaged['cause']): Salvaged => ({
    cause: kind,
    keptAt,
    report: {},
    unreadable: 0,
    lostTables: [...tables],
  });
  if (isNotADatabase(cause)) return none('not-a-database');
  let source: Db;
  try {
    source = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    return none('damaged');
  }
  try {
    // Read past what a damaged file breaks: a header whose page count overstates a truncated
    // file, a schema SQLite would otherwise refuse as a whole. Read-only: nothing is written.
    source.unsafeMode(true);
    source.pragma('writable_schema = ON');
    try {
      source.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
    } catch (error) {
      return none(isNotADatabase(error) ? 'not-a-database' : 'damaged');
    }
    const report = salvageTables(source, target, tables);
    const values = Object.entries(report);
    return {
      cause: 'damaged',
      keptAt,
      report,
      unreadable: values.reduce((n, [, t]) => n + t.unreadable, 0),
      lostTables: values.filter(([, t]) => t.lost).map(([name]) => name),
    };
  } finally {
    source.close();
  }
}

const isNotADatabase = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === 'SQLITE_NOTADB';

/**
 * Before opening `file`: finishes a recovery cut short (its complete new store left at the
 * temporary name is put in place) and moves aside side files left without their database.
 */
export function settleStoreFile(file: string, now: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = temporaryName(file);
  if (!existsSync(file) && existsSync(temp)) moveStoreFiles(temp, file);
  if (orphanSideFiles(file).length > 0) moveAside(file, 'orphaned-log', now);
}

/**
 * Opens a connection's store, checked with quick_check. A damaged one is recovered first (see
 * recoverConnectionStore); an error that is not damage (a full or read-only disk, a newer
 * schema) is thrown as is.
 */
export function openConnectionStore(file: string, options: LocalStoreOptions & { now(): number }) {
  settleStoreFile(file, options.now());
  try {
    return createLocalStore(file, { ...options, quickCheck: true });
  } catch (error) {
    if (storeFaultOf(error) !== 'damaged') throw error;
    recoverConnectionStore(file, error, options);
    return createLocalStore(file, { ...options, quickCheck: true });
  }
}

/**
 * Recovers a connection's damaged store (closed by the caller) in place: the rows that can be
 * read, and for each protocol whose pending change lost its job, a job in doubt (the server is
 * read before it is sent again). The record of what happened stays in the new store until
 * takeRecoveryRecord() hands it over.
 */
export function recoverConnectionStore(
  file: string,
  cause: unknown,
  options: LocalStoreOptions & { now(): number },
): void {
  const { clock } = options;
  recoverStoreFile(file, cause, {
    now: options.now(),
    tables: CONNECTION_TABLES,
    create: (temp) => createLocalStore(temp, clock ? { clock } : {}),
    finish: (fresh, salvaged) => {
      fresh.transaction(() => {
        restoreLostChanges({
          db: fresh.db,
          clock: clock ?? { now: options.now },
          jobs: fresh.jobs,
        });
        const record: RecoveryRecord = {
          id: randomUUID(),
          at: options.now(),
          cause: salvaged.cause,
          keptAt: salvaged.keptAt,
          storeFile: file,
          recovered: {
            protocols: fresh.protocols.count(),
            unsentChanges: unsentChanges(fresh),
            unfinishedBatches: fresh.batches.list().filter((b) => b.state !== 'done').length,
            orders: fresh.orders.count({}),
          },
          unreadable: salvaged.unreadable,
          lostTables: salvaged.lostTables.filter((t) => t !== 'connections' && t !== 'settings'),
        };
        prepareCached(
          fresh.db,
          `INSERT INTO settings (key, value) VALUES (?, ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        ).run(RECORD_KEY, JSON.stringify(record));
      });
    },
  });
}

/**
 * Protocols with a change the server has not confirmed (pending, or in conflict): what the user
 * made here and would lose with the store.
 */
export const unsentChanges = (store: LocalStore): number =>
  store.protocols.list({ syncStates: ['pending', 'conflict'], includeDeleted: true, limit: 1 })
    .total;

/**
 * The record of a recovery this store came from, if the app has not told the user yet; `told`
 * is called with it and the record is removed once it returns (a crash in between tells again,
 * which notices make harmless: they are kept by id).
 */
export function takeRecoveryRecord(
  store: LocalStore,
  told: (record: RecoveryRecord) => void,
): void {
  const row = prepareCached(store.db, 'SELECT value FROM settings WHERE key = ?').get(
    RECORD_KEY,
  ) as { value: string } | undefined;
  if (!row) return;
  const record = jsonText(RecoveryRecord).safeParse(row.value);
  if (record.success) told(record.data);
  prepareCached(store.db, 'DELETE FROM settings WHERE key = ?').run(RECORD_KEY);
}
