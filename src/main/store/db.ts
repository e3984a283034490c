import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations';
import { StoreError } from './errors';

export type Db = Database.Database;

export interface OpenStoreOptions {
  /** The schema versions to apply; tests pass their own. Default: the app's migrations. */
  migrations?: readonly Migration[];
}

/**
 * Opens (or creates) the local store: WAL for files, synchronous=NORMAL, foreign keys on,
 * a 5 s busy timeout, and every pending migration applied in one transaction. A database whose
 * schema is newer than this build is refused, untouched.
 */
export function openStore(file: string, options: OpenStoreOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  const db = new Database(file);
  try {
    if (file !== ':memory:' && file !== '') db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function closeStore(db: Db): void {
  if (db.open) db.close();
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function migrate(db: Db, migrations: readonly Migration[]): void {
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
