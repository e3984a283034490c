import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey } from '@main/db/cipher';
import { StoreKey } from '@shared/store-cipher';

/**
 * The key the tests' store files are encrypted with, where a test is not about keys: every store
 * file is encrypted, in tests too. Tests of the keys themselves use the profile's (startup.ts).
 */
export const TEST_KEY = StoreKey.parse('7e57'.repeat(16));

/** A raw connection to a store file encrypted with TEST_KEY (a test's second look at it). */
export function openTestDb(file: string, options?: Database.Options): Database.Database {
  const db = new Database(file, options);
  applyKey(db, TEST_KEY);
  return db;
}
