import { describe, expect, it } from 'vitest';
import { ApiClientError, isOutcomeUnknown } from '@main/api/errors';
import { notTheApi } from '@main/api/http';
import { createTransport } from '@main/api/transport';
import { CoreEventBus } from '@main/core-event-bus';
import { writeFailure } from '@main/jobs/write-failure';
import { Connectivity, httpProbe, type ProbeResult } from '@main/sync/connectivity';
import { manualTimers } from '@test/support/sync-harness';

const html = { 'content-type': 'text/html; charset=utf-8' };
const json = { 'content-type': 'application/json' };
const PAGE = '<!DOCTYPE html><html><body><h1>Guest Wi-Fi</h1></body></html>';

describe('an answer that is not the API’s', () => {
  it('is an HTML page (any status but 429 and 503), a 511, or a 2xx body that is not JSON', () => {
    const h = (headers: Record<string, string>) => new Headers(headers);
    expect(notTheApi(200, h(html), PAGE)).toBe(true);
    expect(notTheApi(302, h({}), PAGE)).toBe(true);
    expect(notTheApi(401, h({}), '  <html><body>Sign in</body></html>')).toBe(true);
    expect(notTheApi(511, h(json), '{}')).toBe(true);
    expect(notTheApi(200, h({ 'content-type': 'text/plain' }), 'hello')).toBe(true);
    // The API speaking: JSON of any status, an empty 2xx, and 429/503 whoever says them.
    expect(notTheApi(200, h(json), '{"orders":[]}')).toBe(false);
    expect(notTheApi(401, h(json), '{"detail":"no"}')).toBe(false);
    expect(notTheApi(204, h({}), '')).toBe(false);
    expect(notTheApi(200, h({ 'content-type': 'application/problem+json' }), '{}')).toBe(false);
    expect(notTheApi(503, h(html), PAGE)).toBe(false);
    expect(notTheApi(429, h(html), PAGE)).toBe(false);
    // No content type and a body that is not JSON: the API's broken answer, not a portal's.
    expect(notTheApi(200, h({}), 'garbage')).toBe(false);
  });

  it('is a network failure for reachability; a create answered so is in doubt, a read retried', async () => {
    const reach: unknown[][] = [];
    let calls = 0;
    const send = createTransport({
      baseUrl: 'http://api.invalid/v1',
      tokens: { getToken: async () => 't', invalidate: () => undefined },
      fetch: (async () => {
        calls++;
        return new Response(PAGE, { status: 200, headers: html });
      }) as typeof fetch,
      sleep: async () => undefined,
      onReachability: (...args) => reach.push(args),
    });
    const create = send({
      method: 'POST',
      path: '/orders',
      body: {},
      retry: 'unsafe',
      label: 'create order',
      parse: () => 'parsed',
    });
    const error = await create.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error).toMatchObject({ kind: 'network', sent: true, intercepted: true });
    expect((error as Error).message).toMatch(/^The network is not reaching the server/);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(writeFailure(error).to).toBe('in_doubt');
    expect(calls).toBe(1); // a create that may have arrived is not sent again
    expect(reach).toEqual([[false, 'not-api']]);

    await expect(
      send({ method: 'GET', path: '/orders', retry: 'idempotent', label: 'x', parse: () => 1 }),
    ).rejects.toMatchObject({ kind: 'network', intercepted: true });
    expect(calls).toBe(1 + 4); // a read is retried like any network failure
  });

  it('counts as not reachable for the probe, with its reason', async () => {
    const answer = (body: string, headers: Record<string, string>, status = 200) =>
      (async () => new Response(body, { status, headers })) as unknown as typeof fetch;
    const url = 'http://auth.invalid/oauth2/token';
    const form = { grant_type: 'client_credentials' };
    expect(await httpProbe(url, { fetch: answer(PAGE, html), form })()).toBe('not-api');
    expect(
      await httpProbe(url, { fetch: answer('{"error":"invalid_request"}', json, 400), form })(),
    ).toBe(true);
    const refused = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    expect(await httpProbe(url, { fetch: refused })()).toBe(false);
  });
});

describe('connectivity: why nothing is sent', () => {
  const start = (probe: () => Promise<ProbeResult> = async () => true) => {
    const bus = new CoreEventBus();
    const events: unknown[] = [];
    bus.on('connectivity', (e) => events.push({ online: e.online, reason: e.reason }));
    const timers = manualTimers();
    const c = new Connectivity({ bus, probe, timers, initialBackoffMs: 1_000 });
    return { c, events, timers };
  };

  it('says when the network is not reaching the server, and probes until it does', async () => {
    let result: ProbeResult = 'not-api';
    const { c, events, timers } = start(async () => result);
    c.report(false, 'not-api');
    expect(c.state).toMatchObject({ online: false, reason: 'not-api' });
    timers.advance(1_000);
    await Promise.resolve();
    expect(c.reason).toBe('not-api');
    c.report(false); // then no answer at all
    expect(c.reason).toBe('network');
    result = true;
    timers.advance(2_000);
    await new Promise((r) => setImmediate(r));
    expect(c.online).toBe(true);
    expect(events).toEqual([
      { online: false, reason: 'not-api' },
      { online: false, reason: 'network' },
      { online: true, reason: null },
    ]);
  });

  it('holds on refused credentials, whatever the server answers, until they are accepted', async () => {
    const { c, events } = start();
    c.credentialsRejected();
    expect(c).toMatchObject({ online: false, held: true, reason: 'credentials-rejected' });
    c.report(true);
    c.report(false);
    c.report(true);
    expect(c.online).toBe(false);
    let resumed = false;
    void c.whenOnline().then(() => (resumed = true));
    c.credentialsAccepted();
    await Promise.resolve();
    expect(resumed).toBe(true);
    expect(c).toMatchObject({ online: true, held: false, reason: null });
    expect(events).toEqual([
      { online: false, reason: 'credentials-rejected' },
      { online: true, reason: null },
    ]);
  });
});
