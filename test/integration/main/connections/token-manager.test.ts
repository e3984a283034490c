import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/api/client';
import { ApiClientError, isOutcomeUnknown } from '@main/api/errors';
import { TokenManager } from '@main/connections/token-manager';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { countingFetch, fakeClock, recordingSleep } from '@test/support/client-harness';

let sandbox: TestSandbox | null = null;
afterEach(async () => {
  await sandbox?.close();
  sandbox = null;
});

function manager(
  s: TestSandbox,
  extra: Partial<ConstructorParameters<typeof TokenManager>[0]> = {},
) {
  const fetch = countingFetch();
  const tokens = new TokenManager({
    tokenUrl: s.tokenUrl,
    clientId: s.clientId,
    clientSecret: async () => s.clientSecret,
    fetch,
    ...extra,
  });
  return { tokens, fetch, tokenRequests: () => fetch.count('POST', '/oauth2/token') };
}

/** Whether the sandbox accepts the token now. */
async function accepted(s: TestSandbox, token: string): Promise<number> {
  const res = await fetch(`${s.baseUrl}/partners/settings`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

describe('TokenManager', () => {
  it('caches the token: many calls, one token request, and the token works', async () => {
    sandbox = await startTestSandbox();
    const { tokens, tokenRequests } = manager(sandbox);
    const first = await tokens.getToken();
    const second = await tokens.getToken();
    const third = await tokens.getToken();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(tokenRequests()).toBe(1);
    expect(await accepted(sandbox, first)).toBe(200);
  });

  it('renews before expiry (60 s before, on a shared fake clock), not earlier', async () => {
    const clock = fakeClock();
    sandbox = await startTestSandbox({ tokenTtl: 3600 }, { clock });
    const { tokens, tokenRequests } = manager(sandbox, { clock });
    const first = await tokens.getToken();
    clock.advance(3600_000 - 61_000); // 61 s before expiry: still outside the margin
    expect(await tokens.getToken()).toBe(first);
    expect(tokenRequests()).toBe(1);
    clock.advance(2_000); // 59 s before expiry: inside the 60 s margin
    const renewed = await tokens.getToken();
    expect(renewed).not.toBe(first);
    expect(tokenRequests()).toBe(2);
    expect(await accepted(sandbox, renewed)).toBe(200);
    expect(await tokens.getToken()).toBe(renewed);
    expect(tokenRequests()).toBe(2);
  });

  it('uses 10% of a short lifetime as the margin', async () => {
    const clock = fakeClock();
    sandbox = await startTestSandbox({ tokenTtl: 100 }, { clock });
    const { tokens, tokenRequests } = manager(sandbox, { clock });
    const first = await tokens.getToken();
    clock.advance(89_000);
    expect(await tokens.getToken()).toBe(first);
    clock.advance(2_000); // 9 s left of 100: inside the 10 s margin
    expect(await tokens.getToken()).not.toBe(first);
    expect(tokenRequests()).toBe(2);
  });

  it('10 concurrent callers share one token request', async () => {
    sandbox = await startTestSandbox();
    const { tokens, tokenRequests } = manager(sandbox);
    const all = await Promise.all(Array.from({ length: 10 }, () => tokens.getToken()));
    expect(new Set(all).size).toBe(1);
    expect(tokenRequests()).toBe(1);
  });

  it('rejects a wrong secret with a typed error that does not contain the secret', async () => {
    sandbox = await startTestSandbox();
    const secret = 'wrong-secret-4f9c2e7a1b';
    const { tokens } = manager(sandbox, { clientSecret: async () => secret });
    const error = await tokens.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    const e = error as ApiClientError;
    expect(e.kind).toBe('unauthorized');
    expect(e.reason).toBe('invalid-credentials');
    expect(e.message).toContain('The client id or secret was rejected');
    expect(e.message).not.toContain(secret);
    expect(String(e.stack)).not.toContain(secret);
    expect(isOutcomeUnknown(e)).toBe(false);
  });

  it('an API call with a wrong secret fails as unauthorized without sending the API request', async () => {
    sandbox = await startTestSandbox();
    const { tokens, fetch } = manager(sandbox, { clientSecret: async () => 'nope' });
    const client = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens,
      fetch,
      sleep: recordingSleep(),
    });
    await expect(client.listProducts()).rejects.toMatchObject({
      kind: 'unauthorized',
      reason: 'invalid-credentials',
    });
    expect(fetch.count('GET', '/v1/products')).toBe(0);
    expect(fetch.count('POST', '/oauth2/token')).toBe(1);
  });

  it('a token the server says has expired: the call gets 401, renews once and succeeds', async () => {
    const sandboxClock = fakeClock();
    const appClock = fakeClock();
    sandbox = await startTestSandbox({ tokenTtl: 600 }, { clock: sandboxClock });
    const { tokens, fetch, tokenRequests } = manager(sandbox, { clock: appClock });
    const client = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens,
      fetch,
      sleep: recordingSleep(),
    });
    const before = await client.listShippingMethods();
    const stale = await tokens.getToken();
    expect(tokenRequests()).toBe(1);

    sandboxClock.advance(601_000); // only the server's clock: the manager still believes its token is fresh
    expect(await accepted(sandbox, stale)).toBe(401);
    const after = await client.listShippingMethods();
    expect(after).toEqual(before);
    expect(tokenRequests()).toBe(2);
    expect(fetch.count('GET', '/v1/shipping-methods')).toBe(3); // 1 before, then 401 + retry
    const fresh = await tokens.getToken();
    expect(fresh).not.toBe(stale);
    expect(await accepted(sandbox, fresh)).toBe(200);
  });

  it('concurrent calls that all get 401 share one renewal', async () => {
    const sandboxClock = fakeClock();
    sandbox = await startTestSandbox({ tokenTtl: 600 }, { clock: sandboxClock });
    const { tokens, fetch, tokenRequests } = manager(sandbox, { clock: fakeClock() });
    const client = createApiClient({
      baseUrl: sandbox.baseUrl,
      tokens,
      fetch,
      sleep: recordingSleep(),
    });
    await tokens.getToken();
    sandboxClock.advance(601_000);
    const results = await Promise.all(Array.from({ length: 5 }, () => client.getPartnerSettings()));
    expect(results.map((r) => r.id)).toEqual(Array(5).fill('ptn_demo_clinic'));
    expect(tokenRequests()).toBe(2);
  });

  it('invalidate forgets only the current token', async () => {
    sandbox = await startTestSandbox();
    const { tokens, tokenRequests } = manager(sandbox);
    const first = await tokens.getToken();
    tokens.invalidate('some-other-token');
    expect(await tokens.getToken()).toBe(first);
    expect(tokenRequests()).toBe(1);
    tokens.invalidate(first);
    const second = await tokens.getToken();
    expect(second).not.toBe(first);
    expect(tokenRequests()).toBe(2);
  });

  it('keeps the old token when an early renewal fails on the network, and fails once it has expired', async () => {
    const clock = fakeClock();
    sandbox = await startTestSandbox({ tokenTtl: 600 }, { clock });
    let down = false;
    const inner = countingFetch();
    const flaky = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      if (down)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
        });
      return inner(input, init);
    }) as typeof fetch;
    const tokens = new TokenManager({
      tokenUrl: sandbox.tokenUrl,
      clientId: sandbox.clientId,
      clientSecret: async () => sandbox!.clientSecret,
      fetch: flaky,
      clock,
    });
    const first = await tokens.getToken();
    down = true;
    clock.advance(570_000); // inside the margin, not expired
    expect(await tokens.getToken()).toBe(first);
    clock.advance(31_000); // expired
    await expect(tokens.getToken()).rejects.toMatchObject({ kind: 'network', sent: false });
    down = false;
    expect(await tokens.getToken()).not.toBe(first);
  });

  it('a token server that is down is a network error that was not sent', async () => {
    sandbox = await startTestSandbox();
    const tokenUrl = sandbox.tokenUrl;
    await sandbox.close();
    sandbox = null;
    const tokens = new TokenManager({ tokenUrl, clientId: 'x', clientSecret: async () => 'y' });
    const error = (await tokens.getToken().catch((e: unknown) => e)) as ApiClientError;
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error.kind).toBe('network');
    expect(error.sent).toBe(false);
  });
});

describe('TokenManager secret source', () => {
  it('a keychain failure is a typed unauthorized error and nothing is sent', async () => {
    const fetch = countingFetch();
    const tokens = new TokenManager({
      tokenUrl: 'http://127.0.0.1:9/oauth2/token',
      clientId: 'x',
      clientSecret: () => Promise.reject(new Error('The system keychain is unavailable, so …')),
      fetch,
    });
    const error = (await tokens.getToken().catch((e: unknown) => e)) as ApiClientError;
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ kind: 'unauthorized', reason: 'keychain-unavailable' });
    expect(error.message).toMatch(/keychain is unavailable/);
    expect(isOutcomeUnknown(error)).toBe(false);
    expect(fetch.calls).toEqual([]);
  });
});
