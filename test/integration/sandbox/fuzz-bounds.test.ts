import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ErrorDetail,
  HTTP_URL_PATTERN,
  ORDER_STATUSES,
  Order,
  OrderV101,
  PRICE_MAX,
  PRODUCT_STATUSES,
  PartnerSettings,
  Product,
  ProductList,
  Protocol,
  QUANTITY_MAX,
  ValidationErrorBody,
} from '@shared/api';
import { FaultConfig } from '@sandbox/http/faults';
import {
  asV101,
  edgeNumber,
  edgeOrderBody,
  edgeString,
  edgeUrl,
  edgeValue,
  fuzzRuns,
  isWellFormed,
  NOT_PUBLIC_URLS,
  mostly,
  replay,
  type OrderableIds,
} from '@test/support/fuzz-bodies';
import {
  startTestSandbox,
  validOrderBody,
  type ApiResponse,
  type TestSandbox,
} from '@test/support/sandbox';

/**
 * Property: no input to a write endpoint ever gets a 5xx. The bodies are well formed and carry
 * values at and past the service's bounds: quantities and doses up to 2^53 and beyond, prices
 * of any sign and size, control characters, long text, unclean URLs. What is refused is a 4xx
 * in the documented shape; what is accepted is answered in its schema with amounts that are
 * whole, non-negative cents, and partner settings are stored exactly as sent.
 *
 * FUZZ_RUNS changes the runs per property; FC_SEED and FC_PATH replay a failure.
 */
const RUNS = fuzzRuns(150);
const check = <T extends unknown[]>(property: fc.IAsyncProperty<T>) =>
  fc.assert(property, { numRuns: RUNS, ...replay });

let sb: TestSandbox;
let catalog: Product[];
let ids: OrderableIds;
let protocolId: string;

beforeAll(async () => {
  sb = await startTestSandbox();
  catalog = ProductList.parse((await sb.api('GET', '/v1/products?limit=100')).body).products;
  const orderable = catalog.filter((p) => p.status === 'ACTIVE' || p.status === 'BACKORDERED');
  ids = {
    pack: orderable.filter((p) => !p.external).map((p) => p.id),
    external: orderable.filter((p) => p.external).map((p) => p.id),
  };
  protocolId = Protocol.parse((await sb.api('POST', '/v1/protocols', validOrderBody())).body).id;
});
afterAll(async () => {
  await sb.close();
});

/** Sends one JSON body: never a 5xx, one of `allowed`, and a 4xx in the documented error shape. */
async function send(
  allowed: number[],
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  // Always as JSON text: the client would send a string body as it is.
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await sb.api(method, path, text, headers);
  const label = `${method} ${path} -> ${res.status} ${JSON.stringify(res.body)?.slice(0, 400)}`;
  expect(res.status, label).toBeLessThan(500);
  // Fastify refuses a "__proto__" key (or constructor.prototype) as prototype poisoning, 400:
  // valid JSON, never a valid request.
  const poisoned = text !== undefined && /"(__proto__|constructor)":/.test(text);
  expect(poisoned ? [...allowed, 400] : allowed, label).toContain(res.status);
  if (res.status === 422) {
    for (const issue of ValidationErrorBody.parse(res.body).detail)
      expect(issue.loc[0], label).toBe('body');
  } else if (res.status >= 400) {
    expect(ErrorDetail.parse(res.body).detail.length, label).toBeGreaterThan(0);
  }
  return res;
}

const CENTS = /^\d+\.\d{2}$/;
const TOTALS = [
  'subtotalPrice',
  'totalDiscount',
  'totalFees',
  'totalShipping',
  'totalVolumeDiscount',
  'totalPrice',
] as const;

/** Every amount of a priced order or protocol is whole, non-negative cents. */
function expectPriced(
  priced: {
    [K in (typeof TOTALS)[number]]: string | null;
  } & { lineItems: { quantity: number; price: string; discountedPrice: string }[] },
) {
  for (const key of TOTALS) expect(priced[key], key).toMatch(CENTS);
  for (const li of priced.lineItems) {
    expect(li.quantity).toBeLessThanOrEqual(QUANTITY_MAX);
    expect(li.price).toMatch(CENTS);
    expect(li.discountedPrice).toMatch(CENTS);
  }
}

/** Every string in `value`, however deep. */
const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : value !== null && typeof value === 'object'
      ? Object.values(value).flatMap(strings)
      : [];

/** What was accepted is whole text: no lone surrogate anywhere, and names that show something. */
function expectCleanText(accepted: {
  customer: { sourceId: string; firstName: string; lastName: string };
}) {
  for (const text of strings(accepted)) expect(isWellFormed(text), JSON.stringify(text)).toBe(true);
  const { sourceId, firstName, lastName } = accepted.customer;
  for (const name of [sourceId, firstName, lastName])
    expect(name, JSON.stringify(name)).toMatch(/[^\s\p{Default_Ignorable_Code_Point}]/u);
}

describe('no input to a write endpoint gets a 5xx', () => {
  it('POST /v1/orders, 1.0.2 and 1.0.1', () =>
    check(
      fc.asyncProperty(edgeOrderBody(ids), fc.boolean(), async (body, v101) => {
        const res = await send(
          [201, 422],
          'POST',
          '/v1/orders',
          v101 ? asV101(body) : body,
          v101 ? { 'x-api-version': '1.0.1' } : {},
        );
        if (res.status === 201) {
          const order = (v101 ? OrderV101 : Order).parse(res.body);
          expectPriced(order);
          expectCleanText(order);
        }
      }),
    ));

  it('POST /v1/protocols and PUT /v1/protocols/{id}', () =>
    check(
      fc.asyncProperty(edgeOrderBody(ids), fc.boolean(), async (body, replace) => {
        const res = replace
          ? await send([200, 422], 'PUT', `/v1/protocols/${protocolId}`, body)
          : await send([201, 422], 'POST', '/v1/protocols', body);
        if (res.status < 300) {
          const protocol = Protocol.parse(res.body);
          expectPriced(protocol);
          expectCleanText(protocol);
        }
      }),
    ));

  it('PATCH /v1/partners/settings: refused, or stored exactly as sent', () => {
    const text = (valid: string) => fc.oneof(mostly(valid, edgeString), fc.constant(null));
    const url = fc.oneof(edgeUrl, edgeString, fc.constant(null));
    const patch = fc.record(
      {
        webhookUrl: url,
        website: url,
        logo: url,
        primaryColor: mostly('#1a7f64', edgeString),
        phone: text('+1 503 555 0199'),
        supportEmail: fc.oneof(fc.emailAddress(), edgeString, fc.constant(null)),
        billingAddressLine1: text('2150 NW Lovejoy Street'),
        billingCity: text('Portland'),
        billingState: text('OR'),
        billingPostalCode: text('97210'),
        billingCountry: text('US'),
      },
      { requiredKeys: [] },
    );
    return check(
      fc.asyncProperty(patch, async (body) => {
        const res = await send([200, 422], 'PATCH', '/v1/partners/settings', body);
        if (res.status !== 200) return;
        const settings = PartnerSettings.parse(res.body);
        for (const [key, value] of Object.entries(body))
          expect(settings[key as keyof PartnerSettings], key).toBe(value);
        for (const key of ['webhookUrl', 'website', 'logo'] as const) {
          const stored = settings[key];
          if (stored !== null) expect(stored, key).toMatch(HTTP_URL_PATTERN);
          expect(NOT_PUBLIC_URLS, key).not.toContain(stored);
        }
        for (const text of strings(settings)) expect(isWellFormed(text), text).toBe(true);
        expect((await sb.api('GET', '/v1/partners/settings')).body).toEqual(res.body);
        // No webhooks to generated hosts: the other properties create orders.
        if (settings.webhookUrl !== null)
          await send([200], 'PATCH', '/v1/partners/settings', { webhookUrl: null });
      }),
    );
  });

  it('PATCH /_sandbox/products/{id}, then the dearest order of that product', () => {
    const productId = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...catalog.map((p) => String(p.id))) },
      { weight: 1, arbitrary: fc.string().map(encodeURIComponent) },
      { weight: 1, arbitrary: edgeNumber.map(String).map(encodeURIComponent) },
    );
    const price = fc.oneof(
      fc.integer({ min: -2_000_000, max: 2_000_000 }).map((c) => (c / 100).toFixed(2)),
      fc.constantFrom('0.00', PRICE_MAX, '10000.01', '-502.05'),
      edgeValue,
    );
    const change = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            status: mostly('ACTIVE', fc.oneof(fc.constantFrom(...PRODUCT_STATUSES), edgeValue)),
            price,
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: edgeValue },
    );
    return check(
      fc.asyncProperty(productId, change, async (id, body) => {
        const original = catalog.find((p) => String(p.id) === id);
        const res = await send([200, 400, 404, 422], 'PATCH', `/_sandbox/products/${id}`, body);
        if (res.status !== 200) return;
        const changed = Product.parse(res.body);
        expect(Number(changed.price)).toBeGreaterThanOrEqual(0);
        expect(Number(changed.price)).toBeLessThanOrEqual(Number(PRICE_MAX));
        const line = {
          productId: changed.id,
          quantity: QUANTITY_MAX,
          packDescription: changed.packDescription,
          administration: changed.external
            ? null
            : { morning: QUANTITY_MAX, afternoon: 0, evening: 0, sleep: 0 },
        };
        const order = await send(
          [201, 422],
          'POST',
          '/v1/orders',
          validOrderBody({ daysSupply: 90, lineItems: [line] }),
        );
        if (order.status === 201) expectPriced(Order.parse(order.body));
        const { status, price: was } = original!;
        await send([200], 'PATCH', `/_sandbox/products/${id}`, { status, price: was });
      }),
    );
  });

  it('PUT /_sandbox/faults', () => {
    const config = fc.record(
      {
        latencyMs: fc.oneof(fc.constantFrom(0, 60_000), edgeNumber),
        errorRate: fc.oneof(fc.constantFrom(0, 1), edgeNumber),
        errorStatus: fc.oneof(fc.constantFrom(429, 500, 502, 503), edgeValue),
        dropResponseRate: fc.oneof(fc.constant(0), edgeNumber),
        match: fc.oneof(
          fc.record(
            {
              method: mostly('post', edgeString),
              path: mostly('/v1/nothing', edgeString),
            },
            { requiredKeys: [] },
          ),
          edgeValue,
        ),
        count: fc.oneof(fc.constantFrom(1, null), edgeNumber),
      },
      { requiredKeys: [] },
    );
    return check(
      fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: config }, edgeValue), async (body) => {
        const res = await send([200, 422], 'PUT', '/_sandbox/faults', body);
        if (res.status !== 200) return;
        FaultConfig.extend({ injected: z.int() }).parse(res.body);
        // A valid configuration by chance: switch it off before anything else reaches /v1.
        await send([200], 'DELETE', '/_sandbox/faults');
      }),
    );
  });

  it('POST /_sandbox/orders/{id}/advance', () => {
    const target = fc.oneof(
      { weight: 3, arbitrary: fc.constant<'fresh'>('fresh') },
      { weight: 1, arbitrary: fc.string().map(encodeURIComponent) },
    );
    const body = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record(
          { to: mostly('SHIPPED', fc.oneof(fc.constantFrom(...ORDER_STATUSES), edgeValue)) },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: edgeValue },
    );
    return check(
      fc.asyncProperty(target, body, async (which, sent) => {
        const id =
          which === 'fresh'
            ? Order.parse((await sb.api('POST', '/v1/orders', validOrderBody())).body).id
            : which;
        const res = await send(
          [200, 400, 404, 409, 422],
          'POST',
          `/_sandbox/orders/${id}/advance`,
          sent,
        );
        if (res.status === 200) expectPriced(Order.parse(res.body));
      }),
    );
  });
});
