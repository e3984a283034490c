import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorDetail, OrderList, ProductList, ProtocolList } from '@shared/api';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { createOrder } from '@test/support/sandbox-orders';

/** Black-box tests of cursor pagination on list orders, list protocols and list products. */

const ORDERS = 25;
const PROTOCOLS = 13;
const PRODUCTS = 42;

let sandbox: TestSandbox;
/** Ids in creation order. */
const orderIds: string[] = [];
const protocolIds: string[] = [];

beforeAll(async () => {
  sandbox = await startTestSandbox();
  for (let i = 0; i < ORDERS; i++) {
    const sourceId = `patient-${String(i).padStart(4, '0')}`;
    const order = await createOrder(sandbox, {
      customer: { ...validOrderBody().customer, sourceId },
    });
    orderIds.push(order.id);
  }
  for (let i = 0; i < PROTOCOLS; i++) {
    const res = await sandbox.api('POST', '/v1/protocols', validOrderBody());
    expect(res.status).toBe(201);
    protocolIds.push((res.body as { id: string }).id);
  }
});
afterAll(() => sandbox.close());

type ListName = 'orders' | 'protocols' | 'products';
const SCHEMAS = { orders: OrderList, protocols: ProtocolList, products: ProductList };

interface Page {
  ids: string[];
  cursor: string | null;
}

async function getPage(list: ListName, query: Record<string, string>): Promise<Page> {
  const res = await sandbox.api('GET', `/v1/${list}?${new URLSearchParams(query)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const body = SCHEMAS[list].parse(res.body) as unknown as { cursor: string | null } & Record<
    ListName,
    { id: string | number }[]
  >;
  return { ids: body[list].map((item) => String(item.id)), cursor: body.cursor };
}

async function expect400(path: string, pattern: RegExp) {
  const res = await sandbox.api('GET', path);
  expect(res.status, path).toBe(400);
  expect(ErrorDetail.strict().parse(res.body).detail).toMatch(pattern);
}

/** Walks a list forward from the start; returns every page, the last one with cursor null. */
async function walkForward(list: ListName, query: Record<string, string>): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await getPage(list, {
      ...query,
      ...(cursor ? { cursor, direction: 'next' } : {}),
    });
    pages.push(page);
    cursor = page.cursor;
    expect(pages.length).toBeLessThanOrEqual(100);
  } while (cursor);
  return pages;
}

/**
 * Walks a list back from the cursor of page `pages[k]` (the last page that has one) to the front
 * and checks that it meets the same pages in reverse, ending with cursor null on the first page.
 */
async function expectWalkBack(list: ListName, query: Record<string, string>, pages: Page[]) {
  let k = pages.length - 2;
  let cursor = pages[k]!.cursor!;
  while (k > 0) {
    const page = await getPage(list, { ...query, cursor, direction: 'previous' });
    k -= 1;
    expect(page.ids, `page ${k}`).toEqual(pages[k]!.ids);
    if (k === 0) expect(page.cursor).toBeNull();
    else {
      expect(page.cursor).not.toBeNull();
      // The cursor of a page reached backwards also leads forward again to the page after it.
      expect(
        (await getPage(list, { ...query, cursor: page.cursor!, direction: 'next' })).ids,
      ).toEqual(pages[k + 1]!.ids);
      cursor = page.cursor!;
    }
  }
  // Before the first page there is nothing: an empty page and cursor null.
  expect(
    await getPage(list, { ...query, cursor: pages[0]!.cursor!, direction: 'previous' }),
  ).toEqual({ ids: [], cursor: null });
}

describe('page size', () => {
  it.each(['orders', 'protocols', 'products'] as const)(
    '%s: default 10, 1 and 100 allowed',
    async (list) => {
      const total = { orders: ORDERS, protocols: PROTOCOLS, products: PRODUCTS }[list];
      const first = await getPage(list, {});
      expect(first.ids).toHaveLength(10);
      expect(first.cursor).not.toBeNull();
      const one = await getPage(list, { limit: '1' });
      expect(one.ids).toEqual(first.ids.slice(0, 1));
      expect(one.cursor).not.toBeNull();
      const all = await getPage(list, { limit: '100' });
      expect(all.ids).toHaveLength(total);
      expect(all.ids.slice(0, 10)).toEqual(first.ids);
      expect(all.cursor).toBeNull();
    },
  );

  it.each(['orders', 'protocols', 'products'] as const)(
    '%s: 400 for limit 0, 101, abc, 1.5, -1',
    async (list) => {
      for (const limit of ['0', '101', 'abc', '1.5', '-1', ''])
        await expect400(`/v1/${list}?limit=${limit}`, /limit/);
    },
  );

  it('400 for an unknown direction', async () => {
    await expect400('/v1/orders?direction=back', /direction/);
  });
});

describe('orders: newest first, both directions', () => {
  it('walks forward through every order once, newest first, ending with cursor null', async () => {
    const pages = await walkForward('orders', {});
    expect(pages.map((p) => p.ids.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((p) => p.ids)).toEqual([...orderIds].reverse());
    expect(pages.at(-1)!.cursor).toBeNull();
  });

  it('walks back with direction=previous through the same pages', async () => {
    const pages = await walkForward('orders', { limit: '4' });
    expect(pages.map((p) => p.ids.length)).toEqual([4, 4, 4, 4, 4, 4, 1]);
    expect(pages.flatMap((p) => p.ids)).toEqual([...orderIds].reverse());
    await expectWalkBack('orders', { limit: '4' }, pages);
  });

  it('keeps a status filter across pages', async () => {
    const cancelled = [orderIds[2]!, orderIds[7]!, orderIds[11]!, orderIds[19]!, orderIds[23]!];
    for (const id of cancelled)
      expect((await sandbox.api('POST', `/v1/orders/${id}/cancel`)).status).toBe(200);
    const pages = await walkForward('orders', { limit: '2', status: 'CANCELLED' });
    expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.ids)).toEqual([...cancelled].reverse());
    await expectWalkBack('orders', { limit: '2', status: 'CANCELLED' }, pages);
    const created = await walkForward('orders', { limit: '7', status: 'CREATED' });
    expect(created.flatMap((p) => p.ids)).toEqual(
      orderIds.filter((id) => !cancelled.includes(id)).reverse(),
    );
  });
});

describe('protocols: newest first, both directions', () => {
  it('walks forward and back through every protocol once', async () => {
    const pages = await walkForward('protocols', { limit: '3' });
    expect(pages.map((p) => p.ids.length)).toEqual([3, 3, 3, 3, 1]);
    expect(pages.flatMap((p) => p.ids)).toEqual([...protocolIds].reverse());
    await expectWalkBack('protocols', { limit: '3' }, pages);
  });
});

describe('products: id ascending, both directions', () => {
  it('walks the 42 seeded products in 5 pages of 10, ids ascending', async () => {
    const pages = await walkForward('products', {});
    expect(pages.map((p) => p.ids.length)).toEqual([10, 10, 10, 10, 2]);
    const ids = pages.flatMap((p) => p.ids.map(Number));
    expect(ids).toEqual(Array.from({ length: PRODUCTS }, (_, i) => 1001 + i));
    await expectWalkBack('products', {}, pages);
  });

  it('combines a status filter with the cursor', async () => {
    const all = (await getPage('products', { limit: '100' })).ids;
    const res = await sandbox.api('GET', '/v1/products?limit=100');
    const statusOf = new Map(
      ProductList.parse(res.body).products.map((p) => [String(p.id), p.status]),
    );
    for (const status of ['ACTIVE', 'BACKORDERED', 'DISCONTINUED', 'DRAFT']) {
      const expected = all.filter((id) => statusOf.get(id) === status);
      expect(expected.length, status).toBeGreaterThan(0);
      const pages = await walkForward('products', { limit: '3', status });
      expect(
        pages.flatMap((p) => p.ids),
        status,
      ).toEqual(expected);
      expect(pages.map((p) => p.ids.length)).toEqual(
        Array.from({ length: Math.ceil(expected.length / 3) }, (_, i) =>
          Math.min(3, expected.length - 3 * i),
        ),
      );
      if (pages.length >= 3) await expectWalkBack('products', { limit: '3', status }, pages);
    }
  });
});

describe('cursors are opaque and belong to one list', () => {
  let ordersCursor: string;
  let productsCursor: string;
  beforeAll(async () => {
    ordersCursor = (await getPage('orders', { limit: '5' })).cursor!;
    productsCursor = (await getPage('products', { limit: '5' })).cursor!;
  });

  it('refuses a garbage or tampered cursor with 400', async () => {
    const tampered = [
      'garbage',
      'not a cursor!',
      `${ordersCursor.slice(0, -3)}zzz`,
      `x${ordersCursor}`,
      ordersCursor.slice(0, Math.floor(ordersCursor.length / 2)),
      Buffer.from('{"v":2}').toString('base64url'),
    ];
    for (const cursor of tampered) {
      for (const direction of ['next', 'previous']) {
        await expect400(`/v1/orders?${new URLSearchParams({ cursor, direction })}`, /cursor/);
      }
    }
    await expect400('/v1/orders?cursor=', /cursor/);
  });

  it('refuses a cursor of one list on another with 400', async () => {
    await expect400(`/v1/protocols?cursor=${ordersCursor}`, /cursor/);
    await expect400(`/v1/products?cursor=${ordersCursor}`, /cursor/);
    await expect400(`/v1/orders?cursor=${productsCursor}&direction=previous`, /cursor/);
    // The same cursor is still good on its own list.
    expect((await getPage('orders', { limit: '5', cursor: ordersCursor })).ids).toHaveLength(5);
  });
});
