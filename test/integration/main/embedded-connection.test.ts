import { TEST_KEY } from '@test/support/store-key';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/api/client';
import { secretAccount } from '@main/connections/connection';
import { MemoryCredentialStore, type CredentialStore } from '@main/connections/keychain';
import { TokenManager } from '@main/connections/token-manager';
import { startEmbeddedConnection, type EmbeddedConnection } from '@main/embedded-sandbox';

const started: EmbeddedConnection[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const e of started.splice(0)) await e.sandbox.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'order-desk-embedded-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, store: CredentialStore, log: string[] = []) {
  const e = await startEmbeddedConnection({
    dataDir,
    store,
    dbKey: TEST_KEY,
    log: (line) => log.push(line),
  });
  started.push(e);
  return e;
}

const clientFor = (e: EmbeddedConnection) =>
  createApiClient({
    baseUrl: e.connection.baseUrl,
    tokens: new TokenManager({
      tokenUrl: `${e.connection.authUrl}/oauth2/token`,
      clientId: e.connection.clientId,
      clientSecret: e.clientSecret,
    }),
  });

async function tokenStatus(
  e: EmbeddedConnection,
  clientId: string,
  secret: string,
): Promise<number> {
  const res = await fetch(e.sandbox.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    }),
  });
  return res.status;
}

describe('embedded sandbox connection', () => {
  it('creates a per-install secret in the keychain and works at once', async () => {
    const store = new MemoryCredentialStore();
    const e = await start(tempDir(), store);
    expect(e.secretInKeychain).toBe(true);
    expect(e.connection).toMatchObject({
      id: 'embedded',
      kind: 'embedded',
      baseUrl: e.sandbox.baseUrl,
      authUrl: e.sandbox.origin,
    });
    const secret = await store.get(secretAccount(e.connection));
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(e.connection)).not.toContain(secret!);
    expect((await clientFor(e).getPartnerSettings()).id).toBe('ptn_demo_clinic');
    expect(await tokenStatus(e, 'demo-clinic', 'demo-secret-change-me')).toBe(401); // no well-known demo secret
  });

  it('reuses the stored secret on the next start, with the same data file', async () => {
    const store = new MemoryCredentialStore();
    const dir = tempDir();
    const first = await start(dir, store);
    const secret = await store.get(secretAccount(first.connection));
    const protocol = await clientFor(first).createProtocol({
      customer: {
        sourceId: 'p-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        address: { line1: '1 Main St', city: 'Portland', state: 'OR', zipCode: '97210' },
      },
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      orderType: 'ONE_TIME',
      lineItems: [{ productId: 1035, quantity: 1, administration: null }],
    });
    await first.sandbox.close();
    started.splice(0);
    const second = await start(dir, store);
    expect(await store.get(secretAccount(second.connection))).toBe(secret);
    expect((await clientFor(second).getProtocol(protocol.id)).customer.lastName).toBe('Lovelace');
  });

  it('without a keychain, uses a per-session secret in memory and logs why (without the secret)', async () => {
    const broken: CredentialStore = {
      get: () => Promise.reject(new Error('The system keychain is unavailable')),
      set: () => Promise.reject(new Error('The system keychain is unavailable')),
      delete: () => Promise.reject(new Error('The system keychain is unavailable')),
    };
    const log: string[] = [];
    const e = await start(tempDir(), broken, log);
    expect(e.secretInKeychain).toBe(false);
    expect(log.join('\n')).toMatch(/kept in memory for this session/);
    const secret = await e.clientSecret();
    expect(log.join('\n')).not.toContain(secret);
    expect(await tokenStatus(e, e.connection.clientId, secret)).toBe(200);
    expect((await clientFor(e).listShippingMethods()).shippingMethods.length).toBe(3);
  });
});
