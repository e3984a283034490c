import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey, storeFileKind, type StoreKey } from '@main/db/cipher';
import { profileStoreFiles } from '@main/stores/profile-files';
import type { CredentialStore } from '@main/connections/keychain';
import { PROFILE_FILE, storeKeyAccount } from '@main/stores/profile-key';
import { StoreKey as StoreKeySchema } from '@shared/store-cipher';

/** Decrypts a store file back to plain SQLite (PRAGMA rekey to no key), as it was before. */
export function decryptStoreFile(file: string, key: StoreKey): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    applyKey(db, key);
    db.pragma('journal_mode = DELETE');
    db.pragma("rekey = ''");
  } finally {
    db.close();
  }
}

/**
 * A data folder as a version before encryption left it: every store plain, with the same schema
 * and rows, and no profile.json (that version had no key).
 */
export function asBeforeEncryption(dataDir: string, key: StoreKey): string[] {
  const files = profileStoreFiles(dataDir).filter((f) => storeFileKind(f) === 'encrypted');
  for (const file of files) decryptStoreFile(file, key);
  rmSync(join(dataDir, PROFILE_FILE), { force: true });
  return files;
}

/** A data folder's profile id (profile.json), which names its key in the keychain. */
export const profileIdOf = (dataDir: string): string =>
  (JSON.parse(readFileSync(join(dataDir, PROFILE_FILE), 'utf8')) as { id: string }).id;

/** The key of a data folder's stores, as its startup keeps it in the keychain. */
export async function profileKeyOf(dataDir: string, credentials: CredentialStore) {
  return StoreKeySchema.parse(await credentials.get(storeKeyAccount(profileIdOf(dataDir))));
}

/** Every file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(entry.parentPath, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files under `dir` whose bytes contain `text` (UTF-8 or UTF-16, as SQLite may store it). */
export function filesContaining(dir: string, text: string): string[] {
  const needles = [Buffer.from(text, 'utf8'), Buffer.from(text, 'utf16le')];
  return filesUnder(dir).filter((file) => {
    const bytes = readFileSync(file);
    return needles.some((needle) => bytes.includes(needle));
  });
}

/** A digest of each file (to show that what was kept was not changed). */
export function digests(files: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    files
      .filter((f) => existsSync(f) && statSync(f).isFile())
      .map((f) => [f, createHash('sha256').update(readFileSync(f)).digest('hex')]),
  );
}
