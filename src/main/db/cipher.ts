import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { cipherPragmas, StoreKey } from '@shared/store-cipher';

export { StoreKey } from '@shared/store-cipher';

/** A new random 256-bit key. */
export const newStoreKey = (): StoreKey => StoreKey.parse(randomBytes(32).toString('hex'));

/**
 * Opens the file as encrypted with `key`: the first statements on a new connection. Temporary
 * tables and sort spills stay in memory, since SQLite writes them to plain temporary files.
 */
export function applyKey(db: Database.Database, key: StoreKey): void {
  for (const statement of cipherPragmas(key)) db.pragma(statement);
  db.pragma('temp_store = MEMORY');
}

/** Every SQLite file begins with these 16 bytes; an encrypted one begins with its random salt. */
const PLAIN_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * What the file is, by its first bytes: absent (or empty: SQLite has not written it yet), a
 * plain SQLite database, or anything else, which for a store of ours means encrypted.
 */
export function storeFileKind(file: string): 'absent' | 'plain' | 'encrypted' {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return 'absent';
    throw error;
  }
  if (size === 0) return 'absent';
  const head = Buffer.alloc(PLAIN_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  return head.equals(PLAIN_HEADER) ? 'plain' : 'encrypted';
}

/**
 * Whether `key` opens the encrypted file (nothing is written). False when SQLite finds it is not
 * a database with this key: another key, or a first page damaged beyond reading.
 */
export function opensWithKey(file: string, key: StoreKey): boolean {
  const db = new Database(file, { fileMustExist: true });
  try {
    applyKey(db, key);
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_NOTADB') return false;
    throw error;
  } finally {
    db.close();
  }
}
