import { randomBytes } from 'node:crypto';
import { KeytarCredentialStore } from '@main/connections/keychain';
import { storeKeyAccount } from '@main/stores/profile-key';

const HOW_TO_RUN =
  'The end-to-end suite keeps secrets in the real system keychain, as the app does. Run it with ' +
  '`npm run test:e2e`, or `dbus-run-session -- bash scripts/with-keyring.sh playwright test`.';

/**
 * Writes, reads back and deletes a throw-away secret through keytar, so that a missing or
 * locked keychain fails the run once, up front, with a message that says what to do.
 */
export async function assertKeychainAvailable(): Promise<void> {
  const store = new KeytarCredentialStore(`Order Desk e2e probe ${process.pid}`);
  const account = `probe-${randomBytes(4).toString('hex')}`;
  const secret = randomBytes(16).toString('hex');
  try {
    await store.set(account, secret);
    const back = await store.get(account);
    await store.delete(account);
    if (back !== secret) throw new Error('the secret read back differs from the one written');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`${HOW_TO_RUN}\nkeytar: ${why}`, { cause: error });
  }
}

type KeytarFind = { findCredentials(service: string): Promise<{ account: string }[]> };

/**
 * The accounts a keychain service holds connection secrets for (to check that nothing was saved);
 * the profile's store key, there from the first start, is not one.
 */
export async function keychainAccounts(service: string): Promise<string[]> {
  const mod = (await import('keytar')) as unknown as { default?: KeytarFind } & KeytarFind;
  const keytar = mod.default ?? mod;
  const accounts = (await keytar.findCredentials(service)).map((c) => c.account);
  const storeKeys = accounts.filter((account) => account.startsWith(storeKeyAccount('')));
  if (storeKeys.length !== 1) throw new Error(`expected one store key, found ${storeKeys.length}`);
  return accounts.filter((account) => !storeKeys.includes(account)).sort();
}
