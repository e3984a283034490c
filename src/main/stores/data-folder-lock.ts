import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { DataDirInUseError } from './app-store';

/** The data folder's lock file: empty of data, it only carries the operating system's lock. */
export const LOCK_FILE = 'order-desk.lock';

export interface DataFolderLock {
  release(): void;
}

/**
 * Takes the data folder for this process: the lock file is opened with locking_mode=EXCLUSIVE
 * and its lock taken at once, and kept until released (fcntl or LockFileEx: a crash or a kill
 * leaves none behind). Another process holding it makes this a DataDirInUseError after
 * `timeoutMs`. It is a file apart from the stores, so a store can be encrypted, replaced or set
 * aside while the folder stays taken.
 */
export function lockDataFolder(dataDir: string, timeoutMs = 2000): DataFolderLock {
  const db = new Database(join(dataDir, LOCK_FILE), { timeout: timeoutMs });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw new DataDirInUseError(dataDir);
    throw error;
  }
  return { release: () => db.open && db.close() };
}
