import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Connection,
  readConnectionSecret,
  saveConnectionSecret,
} from '@main/connections/connection';
import { KeytarCredentialStore } from '@main/connections/keychain';

/**
 * Against the real Secret Service (gnome-keyring under dbus-run-session: `npm run test:unit`
 * runs everything through scripts/with-keyring.sh). With no Secret Service these tests FAIL,
 * unless ORDER_DESK_SKIP_KEYCHAIN=1 says to skip them.
 */
const SERVICE = `Order Desk test ${randomUUID()}`;

async function probe(): Promise<string | null> {
  try {
    await new KeytarCredentialStore(SERVICE).get('probe');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const unavailable = await probe();
const skipReason =
  unavailable !== null && process.env.ORDER_DESK_SKIP_KEYCHAIN === '1'
    ? `no Secret Service is reachable and ORDER_DESK_SKIP_KEYCHAIN=1 (${unavailable})`
    : null;
if (skipReason) console.warn(`keychain tests skipped: ${skipReason}`);

/** Each test fails on its own (not skipped, not a hook error) when there is no Secret Service. */
function requireSecretService(): void {
  if (unavailable !== null) {
    throw new Error(
      `No Secret Service is reachable: ${unavailable}\n` +
        'Run the tests with `npm run test:unit` (dbus-run-session + scripts/with-keyring.sh), ' +
        'or set ORDER_DESK_SKIP_KEYCHAIN=1 to skip them.',
    );
  }
}
const kit = (name: string, body: () => Promise<void>) =>
  it(name, async () => {
    requireSecretService();
    await body();
  });

const used: { service: string; account: string }[] = [];
const track = (account: string, service = SERVICE) => {
  used.push({ service, account });
  return account;
};

describe.skipIf(skipReason !== null)(
  `KeytarCredentialStore against the real Secret Service${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    afterAll(async () => {
      if (unavailable !== null) return;
      for (const { service, account } of used)
        await new KeytarCredentialStore(service).delete(account).catch(() => false);
    });

    kit('sets, gets and deletes a secret', async () => {
      const store = new KeytarCredentialStore(SERVICE);
      const account = track('round-trip');
      expect(await store.get(account)).toBeNull();
      await store.set(account, 'first-secret');
      expect(await store.get(account)).toBe('first-secret');
      await store.set(account, 'second-secret');
      expect(await store.get(account)).toBe('second-secret');
      expect(await store.delete(account)).toBe(true);
      expect(await store.get(account)).toBeNull();
      expect(await store.delete(account)).toBe(false);
    });

    kit('a fresh instance reads what another wrote; another service name does not', async () => {
      const account = track('shared');
      await new KeytarCredentialStore(SERVICE).set(account, 'written-by-one');
      expect(await new KeytarCredentialStore(SERVICE).get(account)).toBe('written-by-one');
      const otherService = `${SERVICE} other`;
      track(account, otherService);
      expect(await new KeytarCredentialStore(otherService).get(account)).toBeNull();
    });

    kit('deleting an account that does not exist answers false', async () => {
      expect(await new KeytarCredentialStore(SERVICE).delete(`never-set-${randomUUID()}`)).toBe(
        false,
      );
    });

    kit('keeps unicode and long secrets exactly', async () => {
      const store = new KeytarCredentialStore(SERVICE);
      const unicode = 'Grüße, 秘密の鍵 🔑 — ñandú «ok» \u2028 end';
      const long = randomBytes(6_000).toString('base64'); // 8,000 characters
      await store.set(track('unicode'), unicode);
      await store.set(track('long'), long);
      expect(await store.get('unicode')).toBe(unicode);
      expect(await store.get('long')).toBe(long);
    });

    kit('saveConnectionSecret / readConnectionSecret through the keychain', async () => {
      const store = new KeytarCredentialStore(SERVICE);
      const connection = Connection.parse({
        id: `conn-${randomUUID().slice(0, 8)}`,
        kind: 'partner-sandbox',
        label: 'Partner sandbox',
        baseUrl: 'https://sandbox.example.com',
        authUrl: 'https://auth.sandbox.example.com',
        clientId: 'clinic-7',
      });
      const secret = `cs_${randomBytes(24).toString('hex')}`;
      track(`client-secret:${connection.id}:${connection.clientId}`);
      await saveConnectionSecret(store, connection, secret);
      expect(await readConnectionSecret(new KeytarCredentialStore(SERVICE), connection)).toBe(
        secret,
      );
      expect(await readConnectionSecret(store, { ...connection, clientId: 'clinic-8' })).toBeNull();
    });
  },
);

describe('KeytarCredentialStore without a Secret Service', () => {
  it('fails with an error that says the keychain is unavailable and never holds the secret', async () => {
    const secret = `never-show-${randomUUID()}`;
    const script = fileURLToPath(new URL('./fixtures/keychain-unavailable.ts', import.meta.url));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/order-desk-bus',
    };
    delete env.DISPLAY;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', script, secret],
      { env, timeout: 15_000 },
    );
    const result = JSON.parse(stdout) as { ok: boolean; message?: string; stack?: string };
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^The system keychain is unavailable/);
    expect(result.message).not.toContain(secret);
    expect(result.stack).not.toContain(secret);
  });
});
