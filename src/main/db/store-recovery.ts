import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey, storeFileKind, type StoreKey } from './cipher';
import type { Db } from './db';
import { salvageTables, type SalvageReport } from './salvage';
import {
  asideName,
  deleteStoreFiles,
  moveAside,
  moveStoreFiles,
  orphanSideFiles,
} from './store-files';

/**
 * A damaged store is found, kept and recovered (docs/architecture.md, "A damaged store"): after a
 * failed quick_check at open, or SQLITE_CORRUPT / SQLITE_NOTADB later, the readable rows are
 * copied into a fresh store at a temporary name (salvage.ts), the damaged file is moved aside
 * (never deleted) and the fresh one takes its place; a crash at any step loses neither. What a
 * connection's store and the app store add to this is in stores/.
 */

const temporaryName = (file: string) => file.replace(/(\.db)?$/, '.recovering.db');

export interface RecoverFileOptions<S extends { db: Db; close(): void }> {
  now: number;
  /** The key the damaged file is read with, when it is encrypted (a plain one is read as it is). */
  key?: StoreKey | 'unencrypted';
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
    salvaged = salvageFrom(file, fresh.db, options.tables, keptAt, cause, options.key);
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
  key: StoreKey | 'unencrypted' | undefined,
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
    // A store from before encryption, damaged before it could be encrypted, is read as it is.
    if (key && key !== 'unencrypted' && storeFileKind(file) === 'encrypted') applyKey(source, key);
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
