import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { systemClock, type Clock } from '../clock';
import { ConnectionsRepo } from '../connections/connections-repo';
import { APP_MIGRATIONS } from '../db/app-migrations';
import type { StoreKey } from '../db/cipher';
import { closeStore, migrate, openKeyed, quickCheck, type Db } from '../db/db';
import { StoreDamagedError, StoreError } from '../db/errors';
import { NoticesRepo } from '../db/notices-repo';
import { runTransaction } from '../db/rows';
import { SettingsRepo } from '../db/settings-repo';
import { APP_STORE_FILE } from '../db/store-files';
import { watchChanges, type ChangeListener } from '../db/store-changes';
import { storeFaultOf, watchFaults, type FaultListener } from '../db/store-faults';
import { recoverStoreFile, settleStoreFile } from '../db/store-recovery';

/**
 * The app store (app.db): the saved connections (no secrets), the app's settings (theme,
 * notifications, updates) and the notices for the user. It is also the data folder's lock: it
 * is opened with locking_mode=EXCLUSIVE and its lock taken at once, so a second process on the
 * same data folder (a second window, the browser host, another copy of the app) is refused. The
 * lock is the operating system's (fcntl or LockFileEx), so it ends with the process, however it
 * ends: a crash or a kill leaves no stale lock behind.
 */
export interface AppStore {
  readonly file: string;
  db: Db;
  connections: ConnectionsRepo;
  settings: SettingsRepo;
  notices: NoticesRepo;
  transaction<T>(fn: () => T): T;
  /** Closes the store and so releases the data folder. */
  close(): void;
}

export interface AppStoreOptions {
  /** The profile's key (stores/profile-key.ts): app.db is encrypted like every store. */
  key: StoreKey;
  clock?: Clock;
  faults?: FaultListener;
  /** Told, after each burst of writes, which subjects they changed (the `changed` event). */
  changes?: ChangeListener;
  /** How long to wait for another process to let go of the folder (one quitting). Default 2 s. */
  lockTimeoutMs?: number;
}

/** Another process uses the data folder. */
export class DataDirInUseError extends StoreError {
  constructor(readonly dataDir: string) {
    super(
      'in-use',
      `Order Desk is already running with the data folder ${dataDir} (in another window, in the browser host, or as another copy of the app). Close it first, or start this one with another data folder.`,
    );
  }
}

/**
 * Opens the data folder's app store, taking the folder's lock (DataDirInUseError when another
 * process holds it). A damaged app store is kept and recovered as a connection store is
 * (db/store-recovery.ts), with a notice saying so.
 */
export function openAppStore(dataDir: string, options: AppStoreOptions): AppStore {
  const clock = options.clock ?? systemClock;
  const { key } = options;
  const file = join(dataDir, APP_STORE_FILE);
  settleStoreFile(file, clock.now());
  let db: Db;
  try {
    db = openLocked(file, dataDir, key, options.lockTimeoutMs ?? 2000);
  } catch (error) {
    if (storeFaultOf(error) !== 'damaged') throw error;
    recoverAppStore(file, error, clock, key);
    db = openLocked(file, dataDir, key, options.lockTimeoutMs ?? 2000);
  }
  if (options.faults) watchFaults(db, options.faults);
  if (options.changes) watchChanges(db, options.changes);
  return appStoreOn(db, file, clock);
}

function appStoreOn(db: Db, file: string, clock: Clock): AppStore {
  return {
    file,
    db,
    connections: new ConnectionsRepo(db, clock),
    settings: new SettingsRepo(db),
    notices: new NoticesRepo(db, clock),
    transaction: (fn) => runTransaction(db, fn),
    close: () => closeStore(db),
  };
}

/**
 * Opens app.db and takes its lock for good: EXCLUSIVE locking mode keeps every lock a
 * transaction takes, and BEGIN EXCLUSIVE takes the strongest at once. A rollback journal, not
 * WAL: the file is small and rarely written, and WAL under EXCLUSIVE mode adds nothing.
 */
function openLocked(file: string, dataDir: string, key: StoreKey, timeoutMs: number): Db {
  const db = openKeyed(file, key, { timeout: timeoutMs });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw new DataDirInUseError(dataDir);
      throw error;
    }
    const problems = quickCheck(db);
    if (problems.length > 0) throw new StoreDamagedError(file, problems);
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    migrate(db, APP_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Recovers a damaged app store (closed) in place, as a connection's store is (store-recovery.ts). */
export function recoverAppStore(file: string, cause: unknown, clock: Clock, key: StoreKey): void {
  recoverStoreFile(file, cause, {
    now: clock.now(),
    tables: ['connections', 'settings', 'notices'],
    key,
    create: (temp) => {
      const db = openKeyed(temp, key);
      migrate(db, APP_MIGRATIONS);
      return appStoreOn(db, temp, clock);
    },
    finish: (fresh, salvaged) => {
      fresh.notices.add({
        id: randomUUID(),
        kind: 'store-recovered',
        at: new Date(clock.now()).toISOString(),
        connectionLabel: null,
        cause: salvaged.cause,
        keptAt: salvaged.keptAt,
        storeFile: file,
        recovered: { protocols: 0, unsentChanges: 0, unfinishedBatches: 0, orders: 0 },
        unreadable: salvaged.unreadable,
      });
    },
  });
}
