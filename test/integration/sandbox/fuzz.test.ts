import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorDetail,
  OAuthErrorBody,
  Order,
  OrderV101,
  PartnerSettings,
  Protocol,
  ValidationErrorBody,
} from '@shared/api';
import {
  anyBody,
  fuzzRuns,
  mutate,
  rawText,
  replay,
  validV101Body,
} from '@test/support/fuzz-bodies';
import {
  startTestSandbox,
  validOrderBody,
  type ApiResponse,
  type TestSandbox,
} from '@test/support/sandbox';

/**
 * Property-based robustness of every write endpoint: arbitrary JSON, raw text and near-valid
 * bodies never cause a 5xx, always get an error body of the documented shape, and write nothing
 * (a body that happens to be valid may succeed; its write is then accounted for).
 *
 * Reproduce a failure with the seed and path fast-check prints: FC_SEED=<seed> FC_PATH=<path>.
 * FUZZ_RUNS changes the number of runs per property.
 */
const RUNS = fuzzRuns(100);

let sandbox: TestSandbox;
let protocolId: string;
let processingOrderId: string;
let deliveredOrderId: string;

async function read(path: string): Promise<any> {
  const res = await sandbox.api('GET', path);
  expect(res.status).toBe(200);
  return res.body;
}

/** What a failed write may not change. Lists are newest first: a new order or protocol is a new newest id. */
const readers = {
  newestOrder: async () => (await read('/v1/orders?limit=1')).orders[0].id as string,
  newestProtocol: async () => (await read('/v1/protocols?limit=1')).protocols[0].id as string,
  settings: () => read('/v1/partners/settings'),
  protocol: () => read(`/v1/protocols/${protocolId}`),
  processingOrder: () => read(`/v1/orders/${processingOrderId}`),
  deliveredOrder: () => read(`/v1/orders/${deliveredOrderId}`),
  faults: () => read('/_sandbox/faults'),
};
type Watched = keyof typeof readers;
let expected: Record<Watched, unknown>;
const expectedCounts = { orders: 0, protocols: 0 };

async function snapshot(): Promise<Record<Watched, unknown>> {
  const keys = Object.keys(readers) as Watched[];
  const values = await Promise.all(keys.map((k) => readers[k]()));
  return Object.fromEntries(keys.map((k, i) => [k, values[i]])) as Record<Watched, unknown>;
}

async function countAll(path: string, key: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = await read(
      `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    count += (page[key] as unknown[]).length;
    cursor = page.cursor as string | null;
  } while (cursor);
  return count;
}

/**
 * Runs a property (each run checks what its endpoint could have written), then checks all of
 * it: the whole snapshot and the exact order and protocol counts.
 */
async function check<T extends unknown[]>(property: fc.IAsyncProperty<T>, examples: T[] = []) {
  await fc.assert(property, {
    numRuns: RUNS,
    verbose: fc.VerbosityLevel.Verbose,
    examples,
    ...replay,
  });
  expect(await snapshot()).toEqual(expected);
  expect(await countAll('/v1/orders', 'orders')).toBe(expectedCounts.orders);
  expect(await countAll('/v1/protocols', 'protocols')).toBe(expectedCounts.protocols);
}

/** A 4xx with the documented error body; a 422 locates its issues in the body. */
function expectApiError(res: ApiResponse) {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status === 422) {
    const body = ValidationErrorBody.parse(res.body);
    for (const issue of body.detail) expect(issue.loc[0]).toBe('body');
  } else {
    expect(ErrorDetail.parse(res.body).detail.length).toBeGreaterThan(0);
  }
}

/** Sends one body; a 2xx is allowed only where `onSuccess` accounts for the write. */
async function sendAndCheck(
  watched: Watched,
  method: string,
  path: string,
  text: string,
  headers: Record<string, string> = {},
  onSuccess?: (res: ApiResponse) => void | Promise<void>,
) {
  const res = await sandbox.api(method, path, text, headers);
  if (onSuccess && res.status >= 200 && res.status < 300) await onSuccess(res);
  else expectApiError(res);
  expect(await readers[watched]()).toEqual(expected[watched]);
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  const protocol = await sandbox.api('POST', '/v1/protocols', validOrderBody());
  expect(protocol.status).toBe(201);
  protocolId = protocol.body.id;
  const processing = await sandbox.api('POST', '/v1/orders', validOrderBody());
  processingOrderId = processing.body.id;
  expect(
    (await sandbox.api('POST', `/_sandbox/orders/${processingOrderId}/advance`)).body.status,
  ).toBe('PROCESSING');
  deliveredOrderId = (await sandbox.api('POST', '/v1/orders', validOrderBody())).body.id;
  const delivered = await sandbox.api('POST', `/_sandbox/orders/${deliveredOrderId}/advance`, {
    to: 'DELIVERED',
  });
  expect(delivered.body.status).toBe('DELIVERED');
  expected = await snapshot();
  expectedCounts.orders = await countAll('/v1/orders', 'orders');
  expectedCounts.protocols = await countAll('/v1/protocols', 'protocols');
  expect(expectedCounts).toEqual({ orders: 2, protocols: 1 });
});

afterAll(async () => {
  await sandbox?.close();
});

describe('fuzzing the write endpoints', () => {
  it('the near-valid generators start from bodies that are valid', async () => {
    expect((await sandbox.api('POST', '/v1/orders', validOrderBody())).status).toBe(201);
    expect(
      (await sandbox.api('POST', '/v1/orders', validV101Body(), { 'x-api-version': '1.0.1' }))
        .status,
    ).toBe(201);
    expect((await sandbox.api('POST', '/v1/protocols', validOrderBody())).status).toBe(201);
    expect(mutate(validOrderBody(), [])).toEqual(validOrderBody());
    expected = await snapshot();
    expectedCounts.orders += 2;
    expectedCounts.protocols += 1;
  });

  const countOrder = (res: ApiResponse) => {
    expect(res.status).toBe(201);
    expected.newestOrder = Order.parse(res.body).id;
    expectedCounts.orders++;
  };

  it('POST /v1/orders (1.0.2)', () =>
    check(
      fc.asyncProperty(anyBody(validOrderBody()), (t) =>
        sendAndCheck('newestOrder', 'POST', '/v1/orders', t, {}, countOrder),
      ),
    ));

  it('POST /v1/orders (x-api-version 1.0.1)', () =>
    check(
      fc.asyncProperty(anyBody(validV101Body()), (t) =>
        sendAndCheck(
          'newestOrder',
          'POST',
          '/v1/orders',
          t,
          { 'x-api-version': '1.0.1' },
          (res) => {
            expect(res.status).toBe(201);
            const order = OrderV101.parse(res.body);
            expect(order.status).toBe('CREATED');
            expected.newestOrder = order.id;
            expectedCounts.orders++;
          },
        ),
      ),
    ));

  it('POST /v1/protocols', () =>
    check(
      fc.asyncProperty(anyBody(validOrderBody()), (t) =>
        sendAndCheck('newestProtocol', 'POST', '/v1/protocols', t, {}, (res) => {
          expect(res.status).toBe(201);
          expected.newestProtocol = Protocol.parse(res.body).id;
          expectedCounts.protocols++;
        }),
      ),
    ));

  it('PUT /v1/protocols/{existing id}', () =>
    check(
      fc.asyncProperty(anyBody(validOrderBody()), (t) =>
        sendAndCheck('protocol', 'PUT', `/v1/protocols/${protocolId}`, t, {}, (res) => {
          expect(res.status).toBe(200);
          expect(Protocol.parse(res.body).id).toBe(protocolId);
          expected.protocol = res.body;
        }),
      ),
    ));

  it('PATCH /v1/partners/settings', () =>
    check(
      fc.asyncProperty(
        anyBody({
          primaryColor: '#1a7f64',
          website: 'https://clinic.example',
          billingCity: 'Bend',
        }),
        (t) =>
          sendAndCheck('settings', 'PATCH', '/v1/partners/settings', t, {}, (res) => {
            expect(res.status).toBe(200);
            expect(PartnerSettings.parse(res.body).id).toBe(
              (expected.settings as PartnerSettings).id,
            );
            expected.settings = res.body;
          }),
      ),
    ));

  it('POST /v1/orders/{id}/cancel with a body, on an order past NEW', () =>
    check(
      fc.asyncProperty(anyBody(), (t) =>
        sendAndCheck('processingOrder', 'POST', `/v1/orders/${processingOrderId}/cancel`, t),
      ),
    ));

  it('POST /_sandbox/orders/{id}/advance, on a DELIVERED order', () =>
    check(
      fc.asyncProperty(anyBody({ to: 'SHIPPED' }), (t) =>
        sendAndCheck('deliveredOrder', 'POST', `/_sandbox/orders/${deliveredOrderId}/advance`, t),
      ),
    ));

  it('PUT /_sandbox/faults', () =>
    check(
      fc.asyncProperty(
        anyBody({ latencyMs: 0, errorRate: 0, match: { method: 'GET', path: '/v1/x' }, count: 1 }),
        (t) =>
          sendAndCheck('faults', 'PUT', '/_sandbox/faults', t, {}, async (res) => {
            expect(res.status).toBe(200);
            // A valid configuration by chance: it is what the sandbox now reports; then reset it.
            expect((await sandbox.api('GET', '/_sandbox/faults')).body).toEqual(res.body);
            expect((await sandbox.api('DELETE', '/_sandbox/faults')).status).toBe(200);
          }),
      ),
    ));

  it('POST /oauth2/token with random form fields and client authentication', async () => {
    const field = fc.oneof(
      fc.string(),
      fc.constantFrom('grant_type', 'client_id', 'client_secret'),
    );
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom('client_credentials', sandbox.clientId, '%', '%zz'),
    );
    const form = fc.oneof(
      fc
        .array(fc.tuple(field, value), { maxLength: 6 })
        .map((pairs) => new URLSearchParams(pairs).toString()),
      rawText,
    );
    const basic = fc.option(
      fc
        .tuple(fc.oneof(fc.string(), fc.constant(sandbox.clientId)), fc.string())
        .map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`),
    );
    await check(
      fc.asyncProperty(form, basic, async (body, authorization) => {
        const res = await fetch(sandbox.tokenUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(authorization ? { authorization } : {}),
          },
          body,
        });
        const text = await res.text();
        expect([400, 401], text).toContain(res.status);
        const error = OAuthErrorBody.parse(JSON.parse(text));
        if (res.status === 401) expect(error.error).toBe('invalid_client');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(text).not.toContain('access_token');
      }),
      // Found by this property: a malformed %-escape in Basic credentials answered 500.
      [['', `Basic ${Buffer.from(`${sandbox.clientId}:%`).toString('base64')}`]],
    );
  });
});
