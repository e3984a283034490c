import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ErrorDetail,
  LINE_ITEMS_MAX,
  Order,
  PRICE_MAX,
  Product,
  ProductList,
  QUANTITY_MAX,
  ValidationErrorBody,
  type ShippingMethod,
} from '@shared/api';
import {
  EXTERNAL_HANDLING_FEE,
  SHIPPING_PRICES,
  VOLUME_DISCOUNT_BPS,
  discountBps,
  priceOrder,
} from '@shared/pricing';
import { FaultConfig } from '@sandbox/http/faults';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { createOrder } from '@test/support/sandbox-orders';

/**
 * The sandbox controls validate like the API (zod, 422 with the field's loc, nothing changed),
 * and the bounds on prices and quantities keep the dearest valid order exactly priced.
 */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

type Loc = (string | number)[];
const product = async (id: number) =>
  Product.parse((await sb.api('GET', `/v1/products/${id}`)).body);

/** Sends a control request, expects 422 with exactly these issues, and that `read` is unchanged. */
async function expect422(
  method: string,
  path: string,
  body: unknown,
  issues: [Loc, string][],
  read: () => Promise<unknown>,
) {
  const before = await read();
  const res = await sb.api(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(ValidationErrorBody.parse(res.body).detail.map((i) => [i.loc, i.type])).toEqual(
    issues.map(([loc, type]) => [['body', ...loc], type]),
  );
  expect(await read()).toEqual(before);
}

describe('PATCH /_sandbox/products/{id}', () => {
  const read = () => product(1001);

  it.each([
    ['-502.05', 'invalid'],
    ['-0.01', 'invalid'],
    ['10000.01', 'invalid'],
    ['99999999999999999.99', 'invalid'],
    ['1e5', 'invalid'],
    ['1.5', 'invalid'],
    ['0050.00', 'invalid'],
    ['12.00\n', 'invalid'],
    ['', 'invalid'],
    [12, 'type_error'],
    [null, 'type_error'],
  ])('refuses the price %j: 422 %s at price, product unchanged', (price, type) =>
    expect422('PATCH', '/_sandbox/products/1001', { price }, [[['price'], type]], read),
  );

  it('refuses an unknown status, an unknown field and a missing body at their loc', async () => {
    await expect422(
      'PATCH',
      '/_sandbox/products/1001',
      { status: 'GONE' },
      [[['status'], 'invalid']],
      read,
    );
    await expect422(
      'PATCH',
      '/_sandbox/products/1001',
      { price: '1.00', name: 'x' },
      [[['name'], 'invalid']],
      read,
    );
    await expect422('PATCH', '/_sandbox/products/1001', undefined, [[[], 'missing']], read);
    await expect422('PATCH', '/_sandbox/products/1001', [], [[[], 'type_error']], read);
  });

  it('a refused negative price leaves the order total as it was (it once made -502.05)', async () => {
    const before = await createOrder(sb);
    const res = await sb.api('PATCH', '/_sandbox/products/1001', { price: '-99.00' });
    expect(res.status).toBe(422);
    const after = await createOrder(sb);
    expect(after.totalPrice).toBe(before.totalPrice);
    expect(Number(after.totalPrice)).toBeGreaterThan(0);
  });

  it(`takes 0.00 and ${PRICE_MAX}; a bad id is 400, an unknown one 404`, async () => {
    for (const price of ['0.00', PRICE_MAX, '0.08']) {
      const res = await sb.api('PATCH', '/_sandbox/products/1002', { price });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(Product.parse(res.body).price).toBe(price);
    }
    const bad = await sb.api('PATCH', '/_sandbox/products/1e3', { price: '1.00' });
    expect(bad.status).toBe(400);
    expect(ErrorDetail.parse(bad.body).detail).toMatch(/productId/);
    expect((await sb.api('PATCH', '/_sandbox/products/999999', { price: '1.00' })).status).toBe(
      404,
    );
  });
});

describe('PUT /_sandbox/faults', () => {
  const read = async () => (await sb.api('GET', '/_sandbox/faults')).body;

  it.each<[string, unknown, Loc, string]>([
    ['latencyMs above 60000', { latencyMs: 60_001 }, ['latencyMs'], 'invalid'],
    ['a negative latencyMs', { latencyMs: -1 }, ['latencyMs'], 'invalid'],
    ['a fractional latencyMs', { latencyMs: 1.5 }, ['latencyMs'], 'type_error'],
    ['errorRate above 1', { errorRate: 1.5 }, ['errorRate'], 'invalid'],
    ['errorStatus 404', { errorStatus: 404 }, ['errorStatus'], 'invalid'],
    ['count 0', { count: 0 }, ['count'], 'invalid'],
    ['a method with CR/LF', { match: { method: 'GET\r\n' } }, ['match', 'method'], 'invalid'],
    ['a method with a space', { match: { method: 'G ET' } }, ['match', 'method'], 'invalid'],
    ['a path without /', { match: { path: 'v1/orders' } }, ['match', 'path'], 'invalid'],
    ['a path with a NUL', { match: { path: '/v1/\u0000' } }, ['match', 'path'], 'invalid'],
    ['a path of 2049', { match: { path: `/${'p'.repeat(2048)}` } }, ['match', 'path'], 'invalid'],
    ['an unknown field', { latency: 5 }, ['latency'], 'invalid'],
  ])('refuses %s at its loc and keeps the faults in force', (_name, body, loc, type) =>
    expect422('PUT', '/_sandbox/faults', body, [[loc, type]], read),
  );

  it('takes a valid configuration and says so', async () => {
    const res = await sb.api('PUT', '/_sandbox/faults', {
      match: { method: 'get', path: '/v1/nothing' },
      latencyMs: 60_000,
    });
    expect(res.status).toBe(200);
    expect(FaultConfig.extend({ injected: z.int() }).parse(res.body).match).toEqual({
      method: 'GET',
      path: '/v1/nothing',
    });
    expect((await sb.api('DELETE', '/_sandbox/faults')).status).toBe(200);
  });
});

describe('POST /_sandbox/orders/{id}/advance', () => {
  it.each<[string, unknown, Loc, string]>([
    ['to NEW', { to: 'NEW' }, ['to'], 'invalid'],
    ['to with a line break', { to: 'SHIPPED\n' }, ['to'], 'invalid'],
    ['to as a number', { to: 5 }, ['to'], 'type_error'],
    ['an unknown field', { to: 'SHIPPED', x: 1 }, ['x'], 'invalid'],
    ['an array', [], [], 'type_error'],
  ])('refuses %s at its loc and moves nothing', async (_name, body, loc, type) => {
    const order = await createOrder(sb);
    const read = async () => (await sb.api('GET', `/v1/orders/${order.id}`)).body;
    await expect422('POST', `/_sandbox/orders/${order.id}/advance`, body, [[loc, type]], read);
  });
});

/** Pricing redone in BigInt from the published rules, to check the float arithmetic is exact. */
function referenceTotal(
  lines: { cents: bigint; quantity: bigint; external: boolean }[],
  daysSupply: 30 | 60 | 90,
  discountValue: number,
  shippingMethod: ShippingMethod,
): string {
  const bps = BigInt(discountBps(discountValue));
  const days = BigInt(daysSupply);
  let items = 0n;
  let fees = 0n;
  for (const line of lines) {
    const discounted = (2n * line.cents * (10_000n - bps) + 10_000n) / 20_000n;
    const units = line.external ? (line.quantity * days) / 30n : line.quantity * days;
    items += discounted * units;
    if (line.external) fees += BigInt(EXTERNAL_HANDLING_FEE) * units;
  }
  const volume = (2n * items * BigInt(VOLUME_DISCOUNT_BPS[daysSupply]) + 10_000n) / 20_000n;
  const total = items - volume + fees + BigInt(SHIPPING_PRICES[shippingMethod]);
  return `${total / 100n}.${String(total % 100n).padStart(2, '0')}`;
}

describe('the dearest valid order', () => {
  const maxCents = BigInt(PRICE_MAX.replace('.', ''));

  it(`${LINE_ITEMS_MAX} lines of ${QUANTITY_MAX} a day for 90 days at ${PRICE_MAX} price exactly`, () => {
    for (const external of [false, true]) {
      const pricing = priceOrder({
        daysSupply: 90,
        shippingMethod: 'OVERNIGHT',
        discountValue: 0,
        lineItems: Array(LINE_ITEMS_MAX).fill({
          quantity: QUANTITY_MAX,
          price: PRICE_MAX,
          external,
        }),
      });
      const line = { cents: maxCents, quantity: BigInt(QUANTITY_MAX), external };
      expect(pricing.totalPrice).toBe(
        referenceTotal(Array(LINE_ITEMS_MAX).fill(line), 90, 0, 'OVERNIGHT'),
      );
    }
  });

  it(`every orderable product at ${PRICE_MAX}, ${QUANTITY_MAX} a day for 90 days: created and priced exactly`, async () => {
    const own = await startTestSandbox();
    try {
      const catalog = ProductList.parse(
        (await own.api('GET', '/v1/products?limit=100')).body,
      ).products.filter((p) => p.status === 'ACTIVE' || p.status === 'BACKORDERED');
      for (const p of catalog) {
        const res = await own.api('PATCH', `/_sandbox/products/${p.id}`, { price: PRICE_MAX });
        expect(res.status).toBe(200);
      }
      const lineItems = catalog.map((p) => ({
        productId: p.id,
        quantity: QUANTITY_MAX,
        packDescription: 'max',
        administration: p.external
          ? null
          : { morning: QUANTITY_MAX, afternoon: 0, evening: 0, sleep: 0 },
      }));
      const body = validOrderBody({ daysSupply: 90, shippingMethod: 'OVERNIGHT', lineItems });
      const res = await own.api('POST', '/v1/orders', body);
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(201);
      const order = Order.parse(res.body);
      const discount = (await own.api('GET', '/v1/partners/settings')).body.discountValue;
      const lines = catalog.map((p) => ({
        cents: maxCents,
        quantity: BigInt(QUANTITY_MAX),
        external: p.external,
      }));
      expect(order.totalPrice).toBe(referenceTotal(lines, 90, discount, 'OVERNIGHT'));
      for (const [method, path] of [
        ['POST', '/v1/protocols'],
        [
          'PUT',
          `/v1/protocols/${(await own.api('POST', '/v1/protocols', validOrderBody())).body.id}`,
        ],
      ]) {
        const protocol = await own.api(method!, path!, body);
        expect(protocol.status, `${method} ${path}`).toBeLessThan(300);
        expect(protocol.body.totalPrice).toBe(order.totalPrice);
      }
    } finally {
      await own.close();
    }
  });
});
