import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalStore } from '@main/stores';
import type { OrderQuery } from '@main/orders/orders-repo';
import { ORDER_STATUSES, type AppOrder } from '@shared/api';
import { appOrder, memoryStore } from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Liskov'];
const BASE = Date.parse('2025-03-01T10:00:00Z');

/** Order i of a queue where several orders share one createdAt (the id breaks the tie). */
function queueOrder(i: number): AppOrder {
  return appOrder(`ord_${String((i * 7919) % 1000).padStart(4, '0')}_${i}`, {
    status: ORDER_STATUSES[i % ORDER_STATUSES.length]!,
    createdAt: new Date(BASE + Math.floor(i / 3) * 60_000).toISOString(),
    customer: {
      ...appOrder('x').customer,
      firstName: FIRST[i % FIRST.length]!,
      lastName: LAST[Math.floor(i / 5) % LAST.length]!,
      sourceId: `PAT-${i % 11}`,
    },
  });
}

/** What the queue must show for `query`: every match, newest first, then id descending. */
function expected(orders: readonly AppOrder[], query: OrderQuery): string[] {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return orders
    .filter((o) => !query.statuses || query.statuses.includes(o.status))
    .filter((o) => query.sourceId === undefined || o.customer.sourceId === query.sourceId)
    .filter((o) => !query.createdFrom || o.createdAt >= query.createdFrom)
    .filter((o) => !query.createdTo || o.createdAt <= query.createdTo)
    .filter((o) => {
      const text = `${o.customer.firstName} ${o.customer.lastName} ${o.customer.sourceId} ${o.id}`;
      return words.every((w) => text.toLowerCase().includes(w));
    })
    .sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    )
    .map((o) => o.id);
}

describe('order queue paging', () => {
  const orders = Array.from({ length: 300 }, (_, i) => queueOrder(i));
  const store = memoryStore();
  store.orders.upsertMany(orders, 'pulled');
  const at = (minutes: number) => new Date(BASE + minutes * 60_000).toISOString();

  const queries: [string, OrderQuery][] = [
    ['every order', {}],
    ['two statuses', { statuses: ['DELIVERED', 'NEW'] }],
    ['no status', { statuses: [] }],
    ['a search word', { search: 'hopper' }],
    ['two search words and a status', { search: 'ada LISKOV', statuses: ['SHIPPED', 'NEW'] }],
    ['one patient', { sourceId: 'PAT-3' }],
    ['one patient, searched', { sourceId: 'PAT-3', search: 'grace' }],
    ['dates, status and search', { createdFrom: at(10), createdTo: at(70), search: 'a' }],
  ];

  it.each(queries)('%s: pages forward and backward give every order once, in order', (_, query) => {
    const want = expected(orders, query);
    expect(store.orders.count(query)).toBe(want.length);
    const limit = 7;
    const forward: string[] = [];
    for (let offset = 0; offset < want.length; offset += limit)
      forward.push(...store.orders.list({ ...query, limit, offset }).map((o) => o.id));
    expect(forward).toEqual(want);
    const backward: string[] = [];
    for (let offset = Math.floor((want.length - 1) / limit) * limit; offset >= 0; offset -= limit)
      backward.unshift(...store.orders.list({ ...query, limit, offset }).map((o) => o.id));
    expect(backward).toEqual(want);
    expect(store.orders.list({ ...query, limit, offset: want.length })).toEqual([]);
    // The bodies are the pages' own orders, not only their ids.
    const byId = new Map(orders.map((o) => [o.id, o]));
    for (const o of store.orders.list({ ...query, limit: 5, offset: 1 }))
      expect(o).toEqual(byId.get(o.id));
  });
});

describe('order queue totals', () => {
  it('are counted again after any change to the orders, and kept while none', () => {
    const store = memoryStore();
    store.orders.upsertMany([queueOrder(0), queueOrder(1), queueOrder(5)], 'pulled');
    const query = { search: 'ada' };
    expect(store.orders.count(query)).toBe(2);
    expect(store.orders.count(query)).toBe(2);
    expect(store.orders.countByStatus(query)).toMatchObject({ NEW: 1, SHIPPED: 0 });

    store.orders.upsert(appOrder('ord_new', { customer: queueOrder(0).customer }), {
      source: 'pulled',
    });
    expect(store.orders.count(query)).toBe(3);
    expect(store.orders.countByStatus(query)).toMatchObject({ NEW: 2 });

    store.orders.upsert(
      {
        ...appOrder('ord_new', { customer: queueOrder(0).customer }),
        status: 'SHIPPED',
        updatedAt: '2025-03-02T00:00:00.000Z',
      },
      { source: 'pulled' },
    );
    expect(store.orders.count({ ...query, statuses: ['SHIPPED'] })).toBe(1);
    expect(store.orders.countByStatus(query)).toMatchObject({ NEW: 1, SHIPPED: 1 });
    // A caller changing the returned counts does not change the kept ones.
    store.orders.countByStatus(query).NEW = 99;
    expect(store.orders.countByStatus(query).NEW).toBe(1);
  });

  it('are counted again after another connection wrote to the same database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orders-totals-'));
    const file = join(dir, 'order-desk.db');
    const app = createLocalStore(file, { key: TEST_KEY });
    const other = createLocalStore(file, { key: TEST_KEY });
    try {
      app.orders.upsert(queueOrder(0), { source: 'pulled' });
      expect(app.orders.count({ search: 'ada' })).toBe(1);
      const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, n) => a + n);
      expect(sum(app.orders.countByStatus({}))).toBe(1);
      other.orders.upsert(queueOrder(5), { source: 'pulled' });
      expect(app.orders.count({ search: 'ada' })).toBe(2);
      expect(sum(app.orders.countByStatus({}))).toBe(2);
    } finally {
      other.close();
      app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
