import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey, storeFileKind, type StoreKey } from './cipher';
import { MIGRATIONS, type Migration } from './migrations';
import { StoreDamagedError, StoreError } from './errors';

export type Db = Database.Database;

export interface OpenStoreOptions {
  /**
   * The key every store file is encrypted with (required for a file; an in-memory store, for
   * tests, has none). A plain file is refused: it is encrypted before it is opened
   * (encrypt-file.ts). 'unencrypted' is for the benches alone, which measure what encryption
   * costs against the same store without it.
   */
  key?: StoreKey | 'unencrypted';
  /** The schema versions to apply; tests pass their own. Default: the app's migrations. */
  migrations?: readonly Migration[];
  /**
   * Run PRAGMA quick_check before anything else and refuse a damaged file (StoreDamagedError),
   * untouched: not migrated, nothing written. About 0.2 s for a store of 100,000 protocols
   * (141 MB, in the disk cache).
   */
  quickCheck?: boolean;
}

/**
 * A store's page cache, at most (KiB): pages stay decrypted in it once read, and it only grows as
 * pages are read. Why 256 MB: docs/decisions.md, "Page cache".
 */
export const STORE_CACHE_KIB = 256 * 1024;

/**
 * Opens (or creates) the local store: encrypted with its key, WAL for files,
 * synchronous=NORMAL, foreign keys on, a 5 s busy timeout, a page cache of up to 256 MB, and
 * every pending migration applied in one transaction. A database whose schema is newer than this build is refused, untouched. A
 * file that is not a database (or not with this key) fails with SQLite's SQLITE_NOTADB;
 * store-faults.ts tells such errors apart.
 */
export function openStore(file: string, options: OpenStoreOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  const db = openKeyed(file, options.key);
  try {
    db.pragma('busy_timeout = 5000');
    if (options.quickCheck) {
      const problems = quickCheck(db);
      if (problems.length > 0) throw new StoreDamagedError(file, problems);
    }
    if (file !== ':memory:' && file !== '') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // After the quick_check, which reads every page: it would fill the cache at each open.
    db.pragma(`cache_size = -${STORE_CACHE_KIB}`);
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A connection to a store file, encrypted with `key`; a file that exists unencrypted is refused
 * (StoreError 'not-encrypted'), as is a file without a key. An in-memory database needs none.
 */
export function openKeyed(
  file: string,
  key: StoreKey | 'unencrypted' | undefined,
  options?: Database.Options,
): Db {
  if (file === ':memory:' || file === '' || key === 'unencrypted')
    return new Database(file, options);
  if (!key) throw new StoreError('not-encrypted', `No key was given to open ${file}.`);
  if (storeFileKind(file) === 'plain')
    throw new StoreError('not-encrypted', `${file} is not encrypted yet.`);
  const db = new Database(file, options);
  try {
    applyKey(db, key);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function closeStore(db: Db): void {
  if (db.open) db.close();
}

/**
 * SQLite's PRAGMA quick_check: the problems it finds (at most 100), none for a sound file. It
 * reads every page of every table and index but skips cross-checking indexes against tables,
 * so it is several times faster than integrity_check. A file that is not a database at all
 * throws SQLITE_NOTADB.
 */
export function quickCheck(db: Db): string[] {
  const rows = db.pragma('quick_check(100)') as { quick_check: string }[];
  const problems = rows.map((r) => r.quick_check);
  return problems.length === 1 && problems[0] === 'ok' ? [] : problems;
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the pending `migrations` in one IMMEDIATE transaction (a newer schema is refused). */
export function migrate(db: Db, migrations: readonly Migration[]): void {
  const target = migrations.length;
  if (checkVersion(schemaVersion(db), target) === target) return;
  // BEGIN IMMEDIATE, then read the version again: of two processes opening the same old file,
  // the second finds it migrated.
  db.transaction(() => {
    const from = checkVersion(schemaVersion(db), target);
    for (let v = from; v < target; v++) {
      const migration = migrations[v]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
    }
    db.pragma(`user_version = ${target}`);
  }).immediate();
}

function checkVersion(current: number, target: number): number {
  if (current > target) {
    throw new StoreError(
      'future-schema',
      `The local database is at schema version ${current}, but this version of Order Desk knows only up to ${target}. Update Order Desk, or move the database file aside to start afresh.`,
    );
  }
  return current;
}
