import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail, OAuthErrorBody, TokenResponse } from '@shared/api';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

/** Black-box tests of POST /oauth2/token and of bearer authentication on the API. */

interface Raw {
  status: number;
  headers: Headers;
  body: unknown;
}

async function postToken(
  sandbox: TestSandbox,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' },
): Promise<Raw> {
  const res = await fetch(sandbox.tokenUrl, { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

async function getOrders(sandbox: TestSandbox, authorization?: string): Promise<Raw> {
  const res = await fetch(`${sandbox.baseUrl}/orders`, {
    headers: authorization ? { authorization } : {},
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

function expectOAuthError(res: Raw, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(OAuthErrorBody.parse(res.body).error).toBe(error);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

function expect401(res: Raw) {
  expect(res.status).toBe(401);
  expect(ErrorDetail.strict().parse(res.body).detail.length).toBeGreaterThan(0);
  expect(res.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/);
}

describe('token endpoint', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.close());

  const credentials = () => ({
    grant_type: 'client_credentials',
    client_id: sandbox.clientId,
    client_secret: sandbox.clientSecret,
  });

  it('issues a bearer token for form-encoded client credentials, not to be cached', async () => {
    const res = await postToken(sandbox, form(credentials()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = TokenResponse.parse(res.body);
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(3600);
    expect(Object.keys(res.body as object).sort()).toEqual([
      'access_token',
      'expires_in',
      'token_type',
    ]);

    const orders = await getOrders(sandbox, `Bearer ${token.access_token}`);
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual({ orders: [], cursor: null });
  });

  it('issues a different token on each request', async () => {
    const a = TokenResponse.parse((await postToken(sandbox, form(credentials()))).body);
    const b = TokenResponse.parse((await postToken(sandbox, form(credentials()))).body);
    expect(a.access_token).not.toBe(b.access_token);
  });

  it('accepts HTTP Basic client authentication with only grant_type in the body', async () => {
    const res = await postToken(sandbox, form({ grant_type: 'client_credentials' }), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(sandbox.clientId, sandbox.clientSecret),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const token = TokenResponse.parse(res.body);
    expect((await getOrders(sandbox, `Bearer ${token.access_token}`)).status).toBe(200);
  });

  it('answers 401 invalid_client for a wrong secret or an unknown client', async () => {
    expectOAuthError(
      await postToken(sandbox, form({ ...credentials(), client_secret: 'wrong' })),
      401,
      'invalid_client',
    );
    expectOAuthError(
      await postToken(sandbox, form({ ...credentials(), client_id: 'nobody' })),
      401,
      'invalid_client',
    );
    const viaBasic = await postToken(sandbox, form({ grant_type: 'client_credentials' }), {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: basic(sandbox.clientId, 'wrong'),
    });
    expectOAuthError(viaBasic, 401, 'invalid_client');
  });

  it('answers 400 invalid_request when grant_type, client_id or client_secret is missing', async () => {
    const { grant_type: _g, ...noGrant } = credentials();
    const { client_id: _i, ...noId } = credentials();
    const { client_secret: _s, ...noSecret } = credentials();
    expectOAuthError(await postToken(sandbox, form(noGrant)), 400, 'invalid_request');
    expectOAuthError(await postToken(sandbox, form(noId)), 400, 'invalid_request');
    expectOAuthError(await postToken(sandbox, form(noSecret)), 400, 'invalid_request');
  });

  it('answers 400 unsupported_grant_type for any other grant', async () => {
    for (const grant of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      expectOAuthError(
        await postToken(sandbox, form({ ...credentials(), grant_type: grant })),
        400,
        'unsupported_grant_type',
      );
    }
  });

  it('answers 400 invalid_request to a JSON body, even with valid credentials', async () => {
    const res = await postToken(sandbox, JSON.stringify(credentials()), {
      'content-type': 'application/json',
    });
    expectOAuthError(res, 400, 'invalid_request');
  });
});

describe('bearer authentication of API calls', () => {
  let t = Date.parse('2031-03-01T09:00:00.000Z');
  const clock = { now: () => t };
  let sandbox: TestSandbox;
  let other: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ tokenTtl: 1 }, { clock });
    other = await startTestSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
    await other.close();
  });

  it('tells the token lifetime it was configured with', async () => {
    const res = await postToken(
      sandbox,
      form({
        grant_type: 'client_credentials',
        client_id: sandbox.clientId,
        client_secret: sandbox.clientSecret,
      }),
    );
    expect(TokenResponse.parse(res.body).expires_in).toBe(1);
  });

  it('answers 401 with detail and www-authenticate without a token or with a wrong one', async () => {
    expect401(await getOrders(sandbox));
    expect401(await getOrders(sandbox, 'Bearer not-a-real-token'));
    expect401(await getOrders(sandbox, 'Bearer'));
    expect401(await getOrders(sandbox, basic(sandbox.clientId, sandbox.clientSecret)));
    // Sandbox controls are behind the same token.
    const control = await fetch(`${sandbox.origin}/_sandbox/faults`);
    expect401({ status: control.status, headers: control.headers, body: await control.json() });
  });

  it('refuses a token once it has expired, and a fresh token works again', async () => {
    const token = await sandbox.fetchToken();
    t += 999;
    expect((await getOrders(sandbox, `Bearer ${token}`)).status).toBe(200);
    t += 1;
    const expired = await getOrders(sandbox, `Bearer ${token}`);
    expect401(expired);
    expect((expired.body as { detail: string }).detail).toMatch(/expired/);
    const created = await fetch(`${sandbox.baseUrl}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(401);

    const fresh = await sandbox.fetchToken();
    const again = await getOrders(sandbox, `Bearer ${fresh}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ orders: [], cursor: null });
  });

  it('does not accept a token issued by another sandbox', async () => {
    const foreign = await other.fetchToken();
    expect((await getOrders(other, `Bearer ${foreign}`)).status).toBe(200);
    expect401(await getOrders(sandbox, `Bearer ${foreign}`));
    const own = await sandbox.fetchToken();
    expect401(await getOrders(other, `Bearer ${own}`));
  });
});
