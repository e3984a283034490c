import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ShippingMethodInfo } from '@shared/api';
import type { ProtocolSort, SortDirection } from '@shared/protocol-views';
import { closeStore, openStore } from '@main/db';
import { MIGRATIONS } from '@main/db/migrations';
import { salvageTables } from '@main/db/salvage';
import { CONNECTION_TABLES } from '@main/stores/local-store-recovery';
import { createLocalStore } from '@main/stores';
import { appOrder, memoryStore, product, protocolRequest } from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

const DAY = 86_400_000;
type Store = ReturnType<typeof memoryStore>;

const SHIPPING: ShippingMethodInfo[] = [
  {
    id: 'STANDARD',
    name: 'Standard shipping',
    description: '',
    price: '5.00',
    minDays: 3,
    maxDays: 5,
  },
  { id: 'EXPRESS', name: 'Express', description: '', price: '15.00', minDays: 1, maxDays: 2 },
];

/** An order of patient `sourceId` made `daysAgo` days before the store's clock. */
function order(store: Store, id: string, sourceId: string, daysAgo: number, extra = {}) {
  const at = new Date(store.clock.now() - daysAgo * DAY).toISOString();
  return appOrder(id, {
    customer: { ...appOrder('x').customer, sourceId },
    createdAt: at,
    updatedAt: at,
    ...extra,
  });
}

/** Every page of a sort, 2 rows at a time, as customer first names. */
function allPages(store: Store, sort: ProtocolSort, direction?: SortDirection): string[] {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = store.protocols.page({
      sort,
      ...(direction ? { direction } : {}),
      limit: 2,
      cursor,
    });
    seen.push(...page.items.map((p) => p.customerName.split(' ')[0]!));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return seen;
}

/** Four patients: A (60 days, Express, ordered 10 days ago), B (30, ordered 50 days ago), C and D never. */
function clinic() {
  const store = memoryStore();
  store.products.upsertMany([
    product(1001, { name: 'Krill Oil' }),
    product(1002, { name: 'Vitamin D' }),
    product(1003, { name: 'Zinc' }),
  ]);
  store.shippingMethods.replaceAll(SHIPPING);
  const line = (productId: number) => ({
    productId,
    quantity: 1,
    administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
  });
  const make = (first: string, sourceId: string, extra: object) => {
    store.clock.advance(1000);
    return store.protocols.createDraft(
      protocolRequest({ firstName: first, lastName: 'Test', sourceId }, extra),
    ).localId;
  };
  // An order holds the lines of the protocol it was made from (its content: supply.ts).
  const holds = (...products: number[]) =>
    products.map((productId) => ({ ...appOrder('x').lineItems[0]!, ...line(productId) }));
  const ids = {
    a: make('Ann', 'p-a', { daysSupply: 60, shippingMethod: 'EXPRESS', lineItems: [line(1002)] }),
    b: make('Ben', 'p-b', { daysSupply: 30, lineItems: [line(1001), line(1003)] }),
    c: make('Cat', 'p-c', { daysSupply: 90, lineItems: [line(1003)] }),
    d: make('Dan', 'p-d', { daysSupply: 60, lineItems: [line(1001)] }),
  };
  store.orders.upsertMany(
    [
      order(store, 'ord_a', 'p-a', 10, { daysSupply: 60, lineItems: holds(1002) }),
      order(store, 'ord_b', 'p-b', 50, {
        daysSupply: 30,
        status: 'SHIPPED',
        lineItems: holds(1001, 1003),
      }),
      order(store, 'ord_c', 'p-c', 1, {
        status: 'CANCELLED',
        daysSupply: 90,
        lineItems: holds(1003),
      }),
    ],
    'pulled',
  );
  return { store, ids, holds };
}

describe("the protocol list's columns", () => {
  it('reads products, supply, shipping and the last order that was not cancelled with the page', () => {
    const { store, ids } = clinic();
    const now = store.clock.now();
    const byId = new Map(
      store.protocols.page({ sort: 'name' }).items.map((p) => [p.localId, p.columns]),
    );
    expect(byId.get(ids.b)).toEqual({
      products: ['Krill Oil', 'Zinc'],
      daysSupply: 30,
      shipping: 'Standard shipping',
      lastOrder: {
        id: 'ord_b',
        status: 'SHIPPED',
        createdAt: now - 50 * DAY,
        runsOutAt: now - 20 * DAY,
      },
      cancelledAt: null,
    });
    // Only a cancelled order: no last order, but an order was placed, and when.
    expect(byId.get(ids.c)).toMatchObject({
      products: ['Zinc'],
      lastOrder: null,
      cancelledAt: now - 1 * DAY,
    });
    // No order at all.
    expect(byId.get(ids.d)).toMatchObject({ lastOrder: null, cancelledAt: null });
  });

  it('follows the orders, the catalog and the draft as they change', () => {
    const { store, ids } = clinic();
    const columns = (id: string) =>
      store.protocols.page({ sort: 'name' }).items.find((p) => p.localId === id)!.columns;
    // A newer order of the patient becomes the last one; cancelling it falls back.
    store.orders.upsertMany([order(store, 'ord_d', 'p-d', 2, { daysSupply: 60 })], 'pulled');
    expect(columns(ids.d).lastOrder?.id).toBe('ord_d');
    expect(columns(ids.d).cancelledAt).toBeNull();
    store.orders.upsertMany(
      [order(store, 'ord_d', 'p-d', 2, { daysSupply: 60, status: 'CANCELLED' })],
      'pulled',
    );
    expect(columns(ids.d).lastOrder).toBeNull();
    expect(columns(ids.d).cancelledAt).toBe(store.clock.now() - 2 * DAY);
    // A renamed product, a product mirrored later, a renamed shipping method.
    store.products.upsertMany([product(1001, { name: 'Krill Oil Plus' })]);
    expect(columns(ids.d).products).toEqual(['Krill Oil Plus']);
    const draft = store.protocols.get(ids.d)!.draft;
    store.protocols.updateDraft(ids.d, {
      ...draft,
      lineItems: [...draft.lineItems, { ...draft.lineItems[0]!, productId: 1999 }],
    });
    expect(columns(ids.d).products).toEqual(['Krill Oil Plus', 'Product 1999']);
    store.products.upsertMany([product(1999, { name: 'Omega' })]);
    expect(columns(ids.d).products).toEqual(['Krill Oil Plus', 'Omega']);
    store.shippingMethods.replaceAll([{ ...SHIPPING[0]!, name: 'Ground' }, SHIPPING[1]!]);
    expect(columns(ids.d).shipping).toBe('Ground');
    // A method no longer listed keeps the name it had.
    store.shippingMethods.replaceAll([SHIPPING[1]!]);
    expect(columns(ids.d).shipping).toBe('Ground');
  });

  it('sorts by each column both ways, page after page, a missing value last in the usual direction', () => {
    const { store } = clinic();
    expect(allPages(store, 'products')).toEqual(['Dan', 'Ben', 'Ann', 'Cat']);
    expect(allPages(store, 'products', 'desc')).toEqual(['Cat', 'Ann', 'Ben', 'Dan']);
    expect(allPages(store, 'supply')).toEqual(['Ben', 'Ann', 'Dan', 'Cat']);
    expect(allPages(store, 'shipping')).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
    // Newest first; never ordered last (Cat's only order was cancelled), then by seq.
    expect(allPages(store, 'lastOrder')).toEqual(['Ann', 'Ben', 'Dan', 'Cat']);
    expect(allPages(store, 'lastOrder', 'asc')).toEqual(['Cat', 'Dan', 'Ben', 'Ann']);
    // Soonest first: Ben ran out 20 days ago, Ann runs out in 50 days; unknown last.
    expect(allPages(store, 'nextRefill')).toEqual(['Ben', 'Ann', 'Cat', 'Dan']);
    expect(allPages(store, 'sync')).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
  });

  it('sorts a search and a product filter the same way', () => {
    const { store } = clinic();
    const names = (q: Parameters<Store['protocols']['page']>[0]) =>
      store.protocols.page(q).items.map((p) => p.customerName.split(' ')[0]);
    expect(names({ search: 'test', sort: 'nextRefill' })).toEqual(['Ben', 'Ann', 'Cat', 'Dan']);
    expect(names({ productId: 1003, sort: 'supply', direction: 'desc' })).toEqual(['Cat', 'Ben']);
    expect(store.protocols.matchingIds({ sort: 'supply' })).toHaveLength(4);
  });

  it('filters by due window from the time it is given, as Refills due counts days', () => {
    const { store } = clinic();
    const now = store.clock.now();
    const due = (window: 'ran-out' | 'within-7' | 'within-30', at = now) =>
      store.protocols
        .page({ due: { window, now: at }, sort: 'name' })
        .items.map((p) => p.customerName.split(' ')[0]);
    expect(due('ran-out')).toEqual(['Ben']);
    expect(due('within-7')).toEqual(['Ben']);
    expect(due('within-30')).toEqual(['Ben']);
    // 45 days on, Ann has 5 whole days left.
    expect(due('within-7', now + 45 * DAY)).toEqual(['Ann', 'Ben']);
    expect(
      store.protocols.countMatching({ due: { window: 'within-7', now: now + 45 * DAY } }),
    ).toBe(2);
  });

  it("counts the next refill from the whole supply of the protocol's own content", () => {
    const { store, ids, holds } = clinic();
    const now = store.clock.now();
    const runsOut = (id: string) =>
      store.protocols.page({ sort: 'name' }).items.find((p) => p.localId === id)!.columns.lastOrder
        ?.runsOutAt;
    // Ann: a second 60-day order 5 days after the first (10 days ago) adds its 60 days.
    store.orders.upsertMany(
      [order(store, 'ord_a2', 'p-a', 5, { daysSupply: 60, lineItems: holds(1002) })],
      'pulled',
    );
    expect(runsOut(ids.a)).toBe(now - 10 * DAY + 120 * DAY);
    // An order of other products is not this protocol's supply: the last order, but no refill.
    store.orders.upsertMany(
      [order(store, 'ord_d', 'p-d', 3, { daysSupply: 60, lineItems: holds(1003) })],
      'pulled',
    );
    const dan = store.protocols.page({ sort: 'name' }).items.find((p) => p.localId === ids.d)!;
    expect(dan.columns.lastOrder).toMatchObject({ id: 'ord_d', runsOutAt: null });
    // Cancelling the second order of Ann leaves the first one's supply.
    store.orders.upsertMany(
      [
        order(store, 'ord_a2', 'p-a', 5, {
          daysSupply: 60,
          lineItems: holds(1002),
          status: 'CANCELLED',
        }),
      ],
      'pulled',
    );
    expect(runsOut(ids.a)).toBe(now + 50 * DAY);
  });

  it('refuses a cursor of another sort or direction', () => {
    const { store } = clinic();
    const { nextCursor } = store.protocols.page({ sort: 'supply', limit: 1 });
    expect(() =>
      store.protocols.page({ sort: 'supply', direction: 'desc', cursor: nextCursor }),
    ).toThrow(/supply sort, descending/);
    expect(() => store.protocols.page({ sort: 'name', cursor: nextCursor })).toThrow(/name sort/);
  });

  it('lists a protocol whose draft is damaged, with empty columns', () => {
    const store = memoryStore();
    const p = store.protocols.createDraft(protocolRequest());
    store.db.prepare('UPDATE protocols SET draft = ? WHERE local_id = ?').run('{oops', p.localId);
    expect(store.protocols.page().items.map((r) => r.columns)).toEqual([
      { products: [], daysSupply: null, shipping: null, lastOrder: null, cancelledAt: null },
    ]);
  });
});

describe('protocol columns kept through recovery and the upgrade', () => {
  const firstNames = (store: Pick<Store, 'protocols'>, sort: ProtocolSort) =>
    store.protocols.page({ sort }).items.map((p) => p.customerName.split(' ')[0]);

  it('rebuilds every column as the tables of a damaged store are copied back', () => {
    const { store: source } = clinic();
    const target = memoryStore();
    salvageTables(source.db, target.db, CONNECTION_TABLES);
    expect(target.protocols.page({ sort: 'name' }).items.map((p) => p.columns)).toEqual(
      source.protocols.page({ sort: 'name' }).items.map((p) => p.columns),
    );
    expect(firstNames(target, 'nextRefill')).toEqual(['Ben', 'Ann', 'Cat', 'Dan']);
  });

  it('fills the columns of the protocols and orders a version-11 store already has', () => {
    const dir = mkdtempSync(join(tmpdir(), 'protocol-columns-'));
    try {
      const { store: source } = clinic();
      const file = join(dir, 'v11.db');
      const v11 = openStore(file, { key: TEST_KEY, migrations: MIGRATIONS.slice(0, 11) });
      salvageTables(source.db, v11, CONNECTION_TABLES);
      closeStore(v11);
      const store = createLocalStore(file, { key: TEST_KEY });
      try {
        expect(firstNames(store, 'nextRefill')).toEqual(['Ben', 'Ann', 'Cat', 'Dan']);
        expect(firstNames(store, 'shipping')).toEqual(['Ann', 'Ben', 'Cat', 'Dan']);
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
