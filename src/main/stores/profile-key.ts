import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { CredentialStore } from '../connections/keychain';
import { newStoreKey, StoreKey } from '../db/cipher';
import { syncFolder } from '../db/store-files';

/**
 * The key every store file of a profile (a data folder) is encrypted with: 32 random bytes kept
 * in the OS keychain, beside the connection secrets, under `store-key:<profile id>`. The profile
 * id is not secret: it is in `profile.json` in the data folder, so the folder can move on this
 * computer and still find its key. The key itself is never written to disk or a log.
 */
export const PROFILE_FILE = 'profile.json';

const Profile = z.object({ id: z.uuid() });

export const storeKeyAccount = (profileId: string): string => `store-key:${profileId}`;

export type ProfileKey =
  | { found: true; key: StoreKey; profileId: string; created: boolean }
  /** The keychain has no key for this profile (reset, or the folder came from another computer). */
  | { found: false; profileId: string | null };

function readProfileId(dataDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, PROFILE_FILE), 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return Profile.parse(JSON.parse(text)).id;
  } catch {
    return null; // unreadable: as if there were none
  }
}

/** Writes profile.json whole or not at all (a temporary file renamed over it). */
function writeProfileId(dataDir: string, id: string): void {
  const file = join(dataDir, PROFILE_FILE);
  const temp = `${file}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    writeSync(fd, `${JSON.stringify({ id })}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  syncFolder(dirname(file));
}

/**
 * The profile's key from the keychain. A profile with no key yet gets one, but only while no
 * store of it is encrypted (`hasEncryptedFiles`): with encrypted files and no key, the key is
 * missing and nothing is created, so those files stay readable once the keychain is restored.
 * A keychain failure is thrown (KeychainError through guardKeychain).
 */
export async function loadProfileKey(
  dataDir: string,
  credentials: CredentialStore,
  hasEncryptedFiles: boolean,
): Promise<ProfileKey> {
  const profileId = readProfileId(dataDir);
  if (profileId !== null) {
    const stored = StoreKey.safeParse(await credentials.get(storeKeyAccount(profileId)));
    if (stored.success) return { found: true, key: stored.data, profileId, created: false };
  }
  if (hasEncryptedFiles) return { found: false, profileId };
  return newProfileKey(dataDir, credentials, profileId);
}

/**
 * A new key in the keychain for the profile (a new profile id unless `profileId` is given, whose
 * keychain entry holds no key). The keychain first, profile.json after: a crash in between
 * leaves an unused keychain entry, never a profile naming a key that was not saved.
 */
export async function newProfileKey(
  dataDir: string,
  credentials: CredentialStore,
  profileId: string | null = null,
): Promise<ProfileKey & { found: true }> {
  const id = profileId ?? randomUUID();
  const key = newStoreKey();
  await credentials.set(storeKeyAccount(id), key);
  if (id !== readProfileId(dataDir)) writeProfileId(dataDir, id);
  return { found: true, key, profileId: id, created: true };
}
