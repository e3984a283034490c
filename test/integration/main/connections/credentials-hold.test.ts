import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClientError } from '@main/api/errors';
import { TokenManager } from '@main/connections/token-manager';
import { MemoryCredentialStore } from '@main/connections/keychain';
import { Core, type NewConnection } from '@main/core';
import { Redactor, silentLogger } from '@main/logging';
import { CREDENTIALS_REJECTED } from '@main/sync/sync-engine';
import type { CoreEvents } from '@shared/core-events';
import { createLocalProtocols, serverOrdersBySourceId } from '@test/support/bulk';
import { countingFetch, setFaults } from '@test/support/client-harness';
import { PORTAL_PAGE, startRewritingProxy } from '@test/support/rewriting-proxy';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { waitFor } from '@test/support/wait';
import { TEST_KEY } from '@test/support/store-key';

/**
 * Credentials hold the connection: a secret the sign-in server rejected is asked with once, every
 * write waits (queued, never failed) and the header says why, and the new secret resumes it all.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

async function sandbox(): Promise<TestSandbox> {
  const s = await startTestSandbox();
  cleanups.push(() => s.close());
  return s;
}

const TOKEN = '/oauth2/token';

describe('TokenManager: a rejected secret is asked with once', () => {
  it('refuses again from memory until the stored secret changes; then asks once more', async () => {
    const s = await sandbox();
    const fetch = countingFetch();
    let secret = 'not-the-secret';
    const states: string[] = [];
    const tokens = new TokenManager({
      tokenUrl: s.tokenUrl,
      clientId: s.clientId,
      clientSecret: async () => secret,
      fetch,
      onCredentials: (state) => states.push(state),
    });
    for (let i = 0; i < 5; i++) {
      await expect(tokens.getToken()).rejects.toMatchObject({
        kind: 'unauthorized',
        reason: 'invalid-credentials',
      });
    }
    expect(fetch.count('POST', TOKEN)).toBe(1);
    expect(states).toEqual(['rejected']);
    expect(tokens.credentialsRejected).toBe(true);

    secret = s.clientSecret;
    expect(await tokens.getToken()).toMatch(/\S{20,}/);
    expect(fetch.count('POST', TOKEN)).toBe(2);
    expect(states).toEqual(['rejected', 'accepted']);
  });

  it('a token the API refuses again after a renewal makes its secret count as rejected', async () => {
    const s = await sandbox();
    const fetch = countingFetch();
    const states: string[] = [];
    const tokens = new TokenManager({
      tokenUrl: s.tokenUrl,
      clientId: s.clientId,
      clientSecret: async () => s.clientSecret,
      fetch,
      onCredentials: (state) => states.push(state),
    });
    const token = await tokens.getToken();
    const refused = new ApiClientError({
      kind: 'unauthorized',
      reason: 'token-rejected',
      status: 401,
      message: 'refused',
    });
    tokens.reject(token, refused);
    await expect(tokens.getToken()).rejects.toBe(refused);
    expect(fetch.count('POST', TOKEN)).toBe(1);
    expect(states).toEqual(['rejected']);
  });

  it('a sign-in page in place of the token endpoint is the network, not a refused secret', async () => {
    const s = await sandbox();
    const proxy = await startRewritingProxy(s.origin);
    cleanups.push(() => proxy.close());
    proxy.intercept = () => ({ answer: { ...PORTAL_PAGE, status: 401 } });
    const states: string[] = [];
    const tokens = new TokenManager({
      tokenUrl: `${proxy.origin}${TOKEN}`,
      clientId: s.clientId,
      clientSecret: async () => s.clientSecret,
      onCredentials: (state) => states.push(state),
    });
    await expect(tokens.getToken()).rejects.toMatchObject({ kind: 'network', intercepted: true });
    proxy.intercept = null;
    expect(await tokens.getToken()).toMatch(/\S{20,}/);
    expect(states).toEqual([]);
  });
});

describe('a client secret rotated on the server in the middle of a batch', () => {
  it('one token attempt, the batch held (nothing failed), then exactly N orders once the new secret is entered', async () => {
    const N = 40;
    const s = await sandbox();
    const fetch = countingFetch();
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-credentials-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const core = await Core.open({
      key: TEST_KEY,
      dataDir: dir,
      credentials: new MemoryCredentialStore(),
      log: silentLogger,
      redactor: new Redactor(),
      fetch,
    });
    cleanups.push(() => core.close());
    const input: NewConnection = {
      kind: 'partner-sandbox',
      label: 'Partner sandbox',
      baseUrl: s.baseUrl,
      authUrl: s.authUrl,
      clientId: s.clientId,
    };
    const connection = await core.connect(input, s.clientSecret);
    const events: CoreEvents['connectivity'][] = [];
    core.bus.on('connectivity', (e) => events.push(e));

    // Creates answer slowly, so that the rotation lands in the middle of the batch.
    await setFaults(s, { latencyMs: 60, match: { method: 'POST', path: '/v1/orders' } });
    const ids = createLocalProtocols(core.store, N, 'rot');
    const batchId = core.session!.bulk.submit(ids, { concurrency: 4 });
    await waitFor(() => core.session!.bulk.progress(batchId).created >= 8, 30_000, '8 created');

    const rotated = await s.api('POST', '/_sandbox/rotate-client-secret', {
      clientId: s.clientId,
      clientSecret: 'rotated-secret',
    });
    expect(rotated.status).toBe(200);
    const tokensBefore = fetch.count('POST', TOKEN);
    await waitFor(
      () => core.session!.connectivity.reason === 'credentials-rejected',
      15_000,
      'the session holds',
    );
    const held = core.session!;
    await new Promise((r) => setTimeout(r, 300)); // the creates in flight come back refused
    const createsWhenHeld = fetch.count('POST', '/v1/orders');
    const progress = held.bulk.progress(batchId);

    // Time passes, the user presses Sync now: nothing more is asked of either server.
    await new Promise((r) => setTimeout(r, 1_500));
    const report = await held.sync.syncNow();
    expect(report).toMatchObject({ phase: 'offline', error: CREDENTIALS_REJECTED });
    expect(fetch.count('POST', TOKEN) - tokensBefore).toBe(1);
    expect(fetch.count('POST', '/v1/orders')).toBe(createsWhenHeld);
    expect(held.bulk.progress(batchId)).toEqual(progress);
    expect(progress).toMatchObject({ state: 'running', rejected: 0, inDoubt: 0 });
    expect(progress.created).toBeLessThan(N);
    expect(core.store.jobs.counts({ kind: 'order' })).toMatchObject({ rejected: 0, sending: 0 });
    expect(events.at(-1)).toMatchObject({ online: false, reason: 'credentials-rejected' });

    // The user enters the new secret: the same batch goes on to the end, nothing sent twice.
    await core.updateConnection(connection.id, input, 'rotated-secret');
    expect(core.session!.connectivity.online).toBe(true);
    await waitFor(
      () => core.session!.bulk.progress(batchId).state === 'done',
      60_000,
      'the batch finishes',
    );
    expect(core.session!.bulk.progress(batchId)).toMatchObject({ created: N, rejected: 0 });
    s.token = (await tokenFor(s, 'rotated-secret')) ?? '';
    const bySource = await serverOrdersBySourceId(s, 'rot-');
    expect(bySource.size).toBe(N);
    expect([...bySource.values()].every((orders) => orders.length === 1)).toBe(true);
  });
});

describe('a client secret that left the keychain', () => {
  it('holds the batch as "client secret missing" (nothing sent, nothing failed), and resumes by itself when the keychain gives it again', async () => {
    const N = 6;
    const s = await sandbox();
    const fetch = countingFetch();
    const dir = mkdtempSync(join(tmpdir(), 'order-desk-credentials-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const credentials = new MemoryCredentialStore();
    const open = () =>
      Core.open({
        key: TEST_KEY,
        dataDir: dir,
        credentials,
        log: silentLogger,
        redactor: new Redactor(),
        fetch,
        tuning: { secretRecheckMs: 200 },
      });
    const first = await open();
    const connection = await first.connect(
      {
        kind: 'partner-sandbox',
        label: 'Partner sandbox',
        baseUrl: s.baseUrl,
        authUrl: s.authUrl,
        clientId: s.clientId,
      },
      s.clientSecret,
    );
    await first.close();

    // The secret is gone from the keychain (removed by hand, or a keyring that stayed locked).
    const account = [
      ...(credentials as unknown as { secrets: Map<string, string> }).secrets.keys(),
    ];
    expect(account).toHaveLength(1);
    await credentials.delete(account[0]!);
    const tokensBefore = fetch.count('POST', TOKEN);
    const core = await open();
    cleanups.push(() => core.close());
    expect(core.session?.connection.id).toBe(connection.id);
    const ids = createLocalProtocols(core.store, N, 'kc');
    const batchId = core.session!.bulk.submit(ids, { concurrency: 2 });
    await waitFor(
      () => core.session!.connectivity.reason === 'credentials-missing',
      15_000,
      'the session holds for the missing secret',
    );
    await new Promise((r) => setTimeout(r, 600)); // several rechecks: still missing
    expect(fetch.count('POST', '/v1/orders')).toBe(0);
    expect(fetch.count('POST', TOKEN)).toBe(tokensBefore);
    expect(core.session!.bulk.progress(batchId)).toMatchObject({ state: 'running', rejected: 0 });
    expect(core.store.jobs.counts({ kind: 'order' })).toMatchObject({ rejected: 0 });

    // The keychain gives it again: the batch goes on by itself, one order per protocol.
    await credentials.set(account[0]!, s.clientSecret);
    await waitFor(
      () => core.session!.bulk.progress(batchId).state === 'done',
      30_000,
      'the batch finishes',
    );
    expect(core.session!.bulk.progress(batchId)).toMatchObject({ created: N, rejected: 0 });
    const bySource = await serverOrdersBySourceId(s, 'kc-');
    expect(bySource.size).toBe(N);
  });
});

async function tokenFor(s: TestSandbox, secret: string): Promise<string | null> {
  const res = await fetch(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: s.clientId,
      client_secret: secret,
    }),
  });
  return res.status === 200 ? ((await res.json()) as { access_token: string }).access_token : null;
}
