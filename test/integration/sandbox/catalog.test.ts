import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorDetail,
  PRODUCT_STATUSES,
  Product,
  ProductList,
  SHIPPING_METHODS,
  SERVING_TYPES,
  ShippingMethodList,
} from '@shared/api';
import { SHIPPING_PRICES } from '@shared/pricing';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

const MINUTE = 60_000;
const DAY = 86_400_000;

let sb: TestSandbox;
let catalog: Product[];

/** Every product of a list query, following the cursor page by page. */
async function listAll(
  s: TestSandbox,
  query = '',
): Promise<{ products: Product[]; pages: number }> {
  const products: Product[] = [];
  let pages = 0;
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams(query);
    q.set('limit', '10');
    if (cursor) q.set('cursor', cursor);
    const res = await s.api('GET', `/v1/products?${q}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = ProductList.parse(res.body);
    products.push(...page.products);
    cursor = page.cursor;
    pages += 1;
    expect(pages).toBeLessThan(100);
  } while (cursor);
  return { products, pages };
}

const ids = (products: readonly Product[]) => products.map((p) => p.id);

beforeAll(async () => {
  sb = await startTestSandbox();
  catalog = (await listAll(sb)).products;
});
afterAll(async () => {
  await sb.close();
});

describe('list products', () => {
  it('pages through at least 30 products, each in the Product shape, ids ascending and unique', async () => {
    const { products, pages } = await listAll(sb);
    expect(products.length).toBeGreaterThanOrEqual(30);
    expect(pages).toBe(Math.ceil(products.length / 10));
    const sorted = [...ids(products)].sort((a, b) => a - b);
    expect(ids(products)).toEqual(sorted);
    expect(new Set(ids(products)).size).toBe(products.length);
    for (const p of products) expect(Product.strict().parse(p)).toEqual(p);
  });

  it('has a product of every status, and both pack and external products', () => {
    for (const status of PRODUCT_STATUSES)
      expect(
        catalog.some((p) => p.status === status),
        status,
      ).toBe(true);
    expect(catalog.some((p) => p.external)).toBe(true);
    expect(catalog.some((p) => !p.external)).toBe(true);
  });

  it('gives every product a complete SupplementFactsPanel', () => {
    for (const p of catalog) {
      const panel = p.SupplementFactsPanel;
      expect(Object.keys(panel).sort(), `product ${p.id}`).toEqual([
        'ingredientInformation',
        'nutritionInformation',
        'otherIngredients',
        'servingSize',
        'type',
      ]);
      expect(panel.servingSize, `product ${p.id}`).toBeGreaterThanOrEqual(1);
      expect(SERVING_TYPES).toContain(panel.type);
      expect(panel.ingredientInformation.length, `product ${p.id}`).toBeGreaterThan(0);
      for (const ing of panel.ingredientInformation) {
        for (const field of [ing.name, ing.value, ing.unit, ing.daily_value])
          expect(field.trim(), `product ${p.id}`).not.toBe('');
      }
      for (const n of panel.nutritionInformation) expect(n.name.trim()).not.toBe('');
    }
  });

  it('answers a page of the default size 10 when no limit is given', async () => {
    const res = await sb.api('GET', '/v1/products');
    const page = ProductList.parse(res.body);
    expect(ids(page.products)).toEqual(ids(catalog.slice(0, 10)));
    expect(page.cursor).not.toBeNull();
  });

  it.each(PRODUCT_STATUSES)(
    'status=%s returns exactly the products of that status',
    async (status) => {
      const { products } = await listAll(sb, `status=${status}`);
      expect(products.length).toBeGreaterThan(0);
      expect(ids(products)).toEqual(ids(catalog.filter((p) => p.status === status)));
    },
  );

  it.each(['active', 'RETIRED', ''])('status=%j is 400 {detail}', async (status) => {
    const res = await sb.api('GET', `/v1/products?status=${status}`);
    expect(res.status).toBe(400);
    expect(ErrorDetail.parse(res.body).detail).toMatch(/status/);
  });
});

describe('list products by update time', () => {
  const midnightOf = (iso: string) => `${iso.slice(0, 10)}T00:00:00.000Z`;

  it('updatedBefore and updatedAfter with a date use midnight UTC of that date', async () => {
    const times = catalog.map((p) => p.updatedAt).sort();
    const date = times[Math.floor(times.length / 2)]!.slice(0, 10);
    const cut = midnightOf(date);
    const before = catalog.filter((p) => p.updatedAt < cut);
    const after = catalog.filter((p) => p.updatedAt > cut);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect(ids((await listAll(sb, `updatedBefore=${date}`)).products)).toEqual(ids(before));
    expect(ids((await listAll(sb, `updatedAfter=${date}`)).products)).toEqual(ids(after));
  });

  it('updatedAfter and updatedBefore with a date-time are exclusive bounds, in any offset', async () => {
    const times = [...new Set(catalog.map((p) => p.updatedAt))].sort();
    const low = times[Math.floor(times.length / 4)]!;
    const high = times[Math.floor((3 * times.length) / 4)]!;
    const expected = catalog.filter((p) => p.updatedAt > low && p.updatedAt < high);
    expect(expected.length).toBeGreaterThan(0);
    const q = `updatedAfter=${encodeURIComponent(low)}&updatedBefore=${encodeURIComponent(high)}`;
    expect(ids((await listAll(sb, q)).products)).toEqual(ids(expected));
    // The same instant written with a +02:00 offset.
    const shifted = new Date(Date.parse(low) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
    const q2 = `updatedAfter=${encodeURIComponent(shifted)}&updatedBefore=${encodeURIComponent(high)}`;
    expect(ids((await listAll(sb, q2)).products)).toEqual(ids(expected));
  });

  it('combines status with an update-time filter', async () => {
    const date = new Date(Date.now() - 45 * DAY).toISOString().slice(0, 10);
    const expected = catalog.filter((p) => p.status === 'ACTIVE' && p.updatedAt > midnightOf(date));
    expect(ids((await listAll(sb, `status=ACTIVE&updatedAfter=${date}`)).products)).toEqual(
      ids(expected),
    );
  });

  it.each([
    ['updatedAfter', 'yesterday'],
    ['updatedAfter', '2025-13-01'],
    ['updatedAfter', '2025-02-30'],
    ['updatedBefore', '2025-01-01T25:00:00Z'],
    ['updatedBefore', '2025-01-01T10:00:00'],
    ['updatedBefore', '1735725600'],
  ])('%s=%j is 400 {detail}', async (param, value) => {
    const res = await sb.api('GET', `/v1/products?${param}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(ErrorDetail.parse(res.body).detail).toMatch(new RegExp(param));
  });

  it('a product changed through the sandbox control is the only one updated in the last minute', async () => {
    // The catalog is seeded ten minutes in the past, then the clock catches up with real time.
    let offset = -10 * MINUTE;
    const own = await startTestSandbox({}, { clock: { now: () => Date.now() + offset } });
    try {
      offset = 0;
      const oneMinuteAgo = new Date(Date.now() - MINUTE).toISOString();
      expect(
        (await listAll(own, `updatedAfter=${encodeURIComponent(oneMinuteAgo)}`)).products,
      ).toEqual([]);

      const patched = await own.api('PATCH', '/_sandbox/products/1010', {
        status: 'BACKORDERED',
        price: '0.99',
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const changed = Product.parse(patched.body);
      expect(changed).toMatchObject({ id: 1010, status: 'BACKORDERED', price: '0.99' });
      expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(oneMinuteAgo));

      const recent = (await listAll(own, `updatedAfter=${encodeURIComponent(oneMinuteAgo)}`))
        .products;
      expect(recent).toEqual([changed]);
      const older = (await listAll(own, `updatedBefore=${encodeURIComponent(oneMinuteAgo)}`))
        .products;
      expect(ids(older)).not.toContain(1010);
      expect(older.length).toBe(catalog.length - 1);
      expect(Product.parse((await own.api('GET', '/v1/products/1010')).body)).toEqual(changed);

      const priced = Product.parse(
        (await own.api('PATCH', '/_sandbox/products/1011', { price: '1.23' })).body,
      );
      const recentIds = ids(
        (await listAll(own, `updatedAfter=${encodeURIComponent(oneMinuteAgo)}`)).products,
      );
      expect(recentIds).toEqual([1010, 1011]);
      expect(priced.status).toBe(catalog.find((p) => p.id === 1011)!.status);
    } finally {
      await own.close();
    }
  });
});

describe('get product', () => {
  it('answers 200 with the same product as the list', async () => {
    for (const listed of [
      catalog[0]!,
      catalog[catalog.length - 1]!,
      catalog.find((p) => p.external)!,
    ]) {
      const res = await sb.api('GET', `/v1/products/${listed.id}`);
      expect(res.status).toBe(200);
      expect(Product.strict().parse(res.body)).toEqual(listed);
    }
  });

  it('answers 404 {detail} for an unknown id', async () => {
    const res = await sb.api('GET', '/v1/products/999999');
    expect(res.status).toBe(404);
    expect(ErrorDetail.parse(res.body).detail).toMatch(/999999/);
  });

  it.each(['abc', '1.5', '-1', '1e3'])(
    'answers 400 {detail} for the non-integer id %j',
    async (id) => {
      const res = await sb.api('GET', `/v1/products/${id}`);
      expect(res.status).toBe(400);
      expect(ErrorDetail.parse(res.body).detail).toMatch(/productId/);
    },
  );
});

describe('shipping methods', () => {
  it('lists every shipping method with the prices of src/shared/pricing.ts', async () => {
    const res = await sb.api('GET', '/v1/shipping-methods');
    expect(res.status).toBe(200);
    const list = ShippingMethodList.parse(res.body);
    expect(list.shippingMethods.map((m) => m.id).sort()).toEqual([...SHIPPING_METHODS].sort());
    for (const m of list.shippingMethods) {
      expect(m.price).toBe((SHIPPING_PRICES[m.id] / 100).toFixed(2));
      expect(m.name.trim()).not.toBe('');
      expect(m.minDays).toBeGreaterThanOrEqual(1);
      expect(m.maxDays).toBeGreaterThanOrEqual(m.minDays);
    }
  });
});
