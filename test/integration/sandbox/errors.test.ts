import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail, ProtocolList, ValidationErrorBody } from '@shared/api';
import {
  startTestSandbox,
  validOrderBody,
  type ApiResponse,
  type TestSandbox,
} from '@test/support/sandbox';

/** Every error response this file sees, checked against the spec's error shapes at the end. */
const errors: { what: string; status: number; body: unknown }[] = [];

let sb: TestSandbox;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

function seen<T>(what: string, res: ApiResponse<T>): ApiResponse<T> {
  if (res.status >= 400) errors.push({ what, status: res.status, body: res.body });
  return res;
}

/** A call with the test's token, recorded. */
const call = async (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => seen(`${method} ${path}`, await sb.api<unknown>(method, path, body, headers));

/** A raw call with the given headers and no token unless they carry one, recorded. */
async function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  const res = await fetch(`${sb.origin}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // keep the text
  }
  return seen(`${method} ${path} (raw)`, {
    status: res.status,
    headers: res.headers,
    body: parsed,
  });
}

async function protocolCount(): Promise<number> {
  return ProtocolList.parse((await call('GET', '/v1/protocols?limit=100')).body).protocols.length;
}

const PROTECTED_ROUTES: [string, string, unknown?][] = [
  ['POST', '/v1/orders', validOrderBody()],
  ['GET', '/v1/orders'],
  ['GET', '/v1/orders/ord_x'],
  ['POST', '/v1/orders/ord_x/cancel', {}],
  ['GET', '/v1/orders/ord_x/cancel'],
  ['POST', '/v1/protocols', validOrderBody()],
  ['GET', '/v1/protocols'],
  ['GET', '/v1/protocols/prt_x'],
  ['PUT', '/v1/protocols/prt_x', validOrderBody()],
  ['DELETE', '/v1/protocols/prt_x'],
  ['GET', '/v1/products'],
  ['GET', '/v1/products/1001'],
  ['GET', '/v1/shipping-methods'],
  ['GET', '/v1/partners/settings'],
  ['PATCH', '/v1/partners/settings', { primaryColor: '#000000' }],
  ['GET', '/v1/partners/settings/webhook-secret'],
  ['POST', '/v1/partners/settings/rotate-webhook-secret', {}],
  ['POST', '/_sandbox/orders/ord_x/advance', {}],
  ['GET', '/_sandbox/faults'],
  ['PUT', '/_sandbox/faults', { errorRate: 1, errorStatus: 500 }],
  ['DELETE', '/_sandbox/faults'],
  ['GET', '/_sandbox/webhook-deliveries'],
  ['PATCH', '/_sandbox/products/1001', { status: 'DISCONTINUED' }],
];

describe('authentication', () => {
  const CASES: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an unknown bearer token', { authorization: 'Bearer not-a-real-token' }],
    ['a Basic scheme', { authorization: 'Basic ZGVtbzpzZWNyZXQ=' }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
  ];

  it.each(CASES)(
    'every /v1 and /_sandbox route answers 401 {detail} with WWW-Authenticate for %s',
    async (_name, auth) => {
      for (const [method, path, body] of PROTECTED_ROUTES) {
        const headers = body === undefined ? auth : { ...auth, 'content-type': 'application/json' };
        const res = await raw(
          method,
          path,
          headers,
          body === undefined ? undefined : JSON.stringify(body),
        );
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(ErrorDetail.parse(res.body).detail, `${method} ${path}`).not.toBe('');
        expect(res.headers.get('www-authenticate'), `${method} ${path}`).toMatch(/^Bearer/);
      }
    },
  );

  it('an unauthenticated write changes nothing', async () => {
    const settings = (await call('GET', '/v1/partners/settings')).body;
    const faults = (await call('GET', '/_sandbox/faults')).body;
    const product = (await call('GET', '/v1/products/1001')).body;
    const protocols = await protocolCount();
    expect(settings).toBeTypeOf('object');
    expect(faults).toBeTypeOf('object');
    // Every write route again without a token, after the baseline was read.
    for (const [method, path, body] of PROTECTED_ROUTES) {
      if (method === 'GET') continue;
      await raw(
        method,
        path,
        { 'content-type': 'application/json' },
        body === undefined ? undefined : JSON.stringify(body),
      );
    }
    expect((await call('GET', '/v1/partners/settings')).body).toEqual(settings);
    expect((await call('GET', '/_sandbox/faults')).body).toEqual(faults);
    expect((await call('GET', '/v1/products/1001')).body).toEqual(product);
    expect(await protocolCount()).toBe(protocols);
  });

  it('GET /healthz is public', async () => {
    const res = await raw('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('unknown routes and bad requests', () => {
  it.each([
    ['GET', '/v1/does-not-exist'],
    ['GET', '/v2/orders'],
    ['POST', '/v1/products'],
    ['GET', '/nothing-here'],
  ])('%s %s is 404 {detail}', async (method, path) => {
    const res = await call(method, path);
    expect(res.status).toBe(404);
    expect(ErrorDetail.strict().parse(res.body).detail).not.toBe('');
  });

  it('a body over 1 MiB is 413 {detail} and creates nothing', async () => {
    const before = await protocolCount();
    const body = validOrderBody({ padding: 'x'.repeat(1024 * 1024 + 1) });
    const res = await call('POST', '/v1/protocols', body);
    expect(res.status).toBe(413);
    expect(ErrorDetail.strict().parse(res.body).detail).toMatch(/1 MiB/);
    expect(await protocolCount()).toBe(before);
  });

  it('malformed JSON is 400 {detail} and creates nothing', async () => {
    const before = await protocolCount();
    const res = await call('POST', '/v1/protocols', '{"customer": ');
    expect(res.status).toBe(400);
    expect(ErrorDetail.strict().parse(res.body).detail).toMatch(/JSON/);
    expect(await protocolCount()).toBe(before);
  });

  it('a bad query parameter is 400 {detail}', async () => {
    const res = await call('GET', '/v1/protocols?limit=0');
    expect(res.status).toBe(400);
    expect(ErrorDetail.strict().parse(res.body).detail).toMatch(/limit/);
  });

  it('an invalid body is 422 {detail: [{loc, type}]}', async () => {
    const res = await call('POST', '/v1/protocols', { ...validOrderBody(), daysSupply: 7 });
    expect(res.status).toBe(422);
    expect(ValidationErrorBody.parse(res.body).detail[0]).toMatchObject({
      loc: ['body', 'daysSupply'],
      type: 'invalid',
    });
  });

  it('GET on cancel is 405 {detail}', async () => {
    const res = await call('GET', '/v1/orders/ord_x/cancel');
    expect(res.status).toBe(405);
    expect(ErrorDetail.parse(res.body).detail).not.toBe('');
  });
});

describe('error bodies', () => {
  it('every error response seen in this file is {detail: string} or a 422 validation body', () => {
    expect(errors.length).toBeGreaterThan(PROTECTED_ROUTES.length * 4);
    for (const e of errors) {
      const parsed =
        e.status === 422
          ? ValidationErrorBody.strict().safeParse(e.body)
          : ErrorDetail.strict().safeParse(e.body);
      expect(parsed.success, `${e.what} -> ${e.status} ${JSON.stringify(e.body)}`).toBe(true);
    }
    expect(new Set(errors.map((e) => e.status))).toEqual(new Set([400, 401, 404, 405, 413, 422]));
  });
});
