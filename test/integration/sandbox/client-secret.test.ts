import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

/**
 * POST /_sandbox/rotate-client-secret: the secret of an API client changes as on a partner
 * portal. The old secret and every token issued before are refused at once; the new one works.
 */

let sb: TestSandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

const tokenWith = (s: TestSandbox, secret: string) =>
  fetch(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: s.clientId,
      client_secret: secret,
    }),
  });

describe('POST /_sandbox/rotate-client-secret', () => {
  it('refuses the old secret and the tokens issued with it at once; the new secret works', async () => {
    const s = (sb = await startTestSandbox());
    const before = await s.api('GET', '/v1/shipping-methods');
    expect(before.status).toBe(200);

    const rotated = await s.api('POST', '/_sandbox/rotate-client-secret', {
      clientId: s.clientId,
      clientSecret: 'the-new-secret',
    });
    expect(rotated).toMatchObject({
      status: 200,
      body: { clientId: s.clientId, clientSecret: 'the-new-secret' },
    });

    // The token that made the call is revoked with the old secret.
    expect((await s.api('GET', '/v1/shipping-methods')).status).toBe(401);
    const old = await tokenWith(s, s.clientSecret);
    expect(old.status).toBe(401);
    expect(await old.json()).toMatchObject({ error: 'invalid_client' });
    const renewed = await tokenWith(s, 'the-new-secret');
    expect(renewed.status).toBe(200);
    s.token = ((await renewed.json()) as { access_token: string }).access_token;
    expect((await s.api('GET', '/v1/shipping-methods')).status).toBe(200);
  });

  it('makes a random secret when none is given; an unknown client is 404, a bad body 422', async () => {
    const s = (sb = await startTestSandbox());
    const random = await s.api('POST', '/_sandbox/rotate-client-secret', {
      clientId: 'someone-else',
    });
    expect(random.status).toBe(404);
    expect((await s.api('POST', '/_sandbox/rotate-client-secret', {})).status).toBe(422);
    expect(
      (await s.api('POST', '/_sandbox/rotate-client-secret', { clientId: s.clientId, x: 1 }))
        .status,
    ).toBe(422);
    // Nothing changed so far: the token still works.
    expect((await s.api('GET', '/v1/shipping-methods')).status).toBe(200);

    const made = await s.api('POST', '/_sandbox/rotate-client-secret', { clientId: s.clientId });
    expect(made.status).toBe(200);
    expect(made.body.clientSecret).toMatch(/^sbx_[A-Za-z0-9_-]{32}$/);
    expect((await tokenWith(s, made.body.clientSecret)).status).toBe(200);
  });
});
