import { describe, expect, it } from 'vitest';
import { isShortText, paletteSearch, SHORT_TEXT_WINDOW } from '@main/palette/palette-search';
import { planOrderSearch } from '@main/orders/order-search';
import { normalizeForSearch } from '@main/protocols/protocol-search';
import type { AppOrder } from '@shared/api';
import { appOrder, memoryStore, protocolRequest } from '@test/support/store-fixtures';

const FIRST = ['Ada', 'Grace', 'Zoë', 'Edsger', 'Barbara', 'Alan'];
const LAST = ['Lovelace', 'Hopper', 'Brontë', 'Dijkstra', 'Liskov', 'Turing', 'Kay'];
const BASE = Date.parse('2025-03-01T10:00:00Z');
/** Enough orders that the trigrams of ids, Patient IDs and names are common (over 512 each). */
const COUNT = 1500;

function order(i: number): AppOrder {
  return appOrder(`ord_${String(i).padStart(8, '0')}`, {
    createdAt: new Date(BASE + i * 60_000).toISOString(),
    customer: {
      ...appOrder('x').customer,
      firstName: FIRST[i % FIRST.length]!,
      lastName: LAST[Math.floor(i / 3) % LAST.length]!,
      sourceId: `PAT-${String(i % 700).padStart(5, '0')}`,
    },
  });
}

/** What the palette must find: each order whose name, Patient ID or id holds every word. */
function expected(orders: readonly AppOrder[], text: string, limit: number): string[] {
  const words = normalizeForSearch(text).split(' ').filter(Boolean);
  return orders
    .filter((o) => {
      const c = o.customer;
      const all = normalizeForSearch(`${c.firstName} ${c.lastName} ${c.sourceId} ${o.id}`);
      return words.every((w) => all.includes(w));
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
    .slice(0, limit)
    .map((o) => o.id);
}

describe('paletteSearch: orders', () => {
  const orders = Array.from({ length: COUNT }, (_, i) => order(i));
  const store = memoryStore();
  store.orders.upsertMany(orders, 'pulled');

  it.each([
    ['an order id, whole', 'ord_00001234'],
    ['an order id, its prefix', 'ord_0000123'],
    ['an order id, digits inside it', '1234'],
    ['an order id, few digits (common trigrams)', '0012'],
    ["a patient's last name", 'dijkstra'],
    ["a patient's last name, its prefix", 'Lovel'],
    ["a patient's name, a substring", 'ovela'],
    ['first and last name', 'ada lovelace'],
    ['a name without its diacritics', 'bronte'],
    ['a name with them', 'Zoë'],
    ['a Patient ID, whole', 'PAT-00123'],
    ['a Patient ID, its prefix', 'pat-0012'],
    ['a Patient ID, a substring', 't-0012'],
    ['two letters (no trigram)', 'ka'],
    ['a Patient ID and a name', 'pat-00123 kay'],
    ['nothing of the kind', 'nobody'],
    ['a name that no order has with this ID', 'pat-00123 hopper'],
  ])('finds orders by %s (%s), newest first', (_, text) => {
    for (const limit of [5, 50]) {
      const found = paletteSearch(store, text, limit).orders.map((o) => o.id);
      expect(found).toEqual(expected(orders, text, limit));
    }
  });

  it('finds orders by words whose trigrams are each common and rare together', () => {
    // 1,200 orders: half are Ada, half Lovelace, a quarter Ada Lovelace (300, under PROBE_CAP).
    const many = Array.from({ length: 1200 }, (_, i) => {
      const o = order(i);
      const name = {
        firstName: i % 2 ? 'Ada' : 'Alan',
        lastName: (i >> 1) % 2 ? 'Lovelace' : 'Kay',
      };
      return { ...o, customer: { ...o.customer, ...name } };
    });
    const own = memoryStore();
    own.orders.upsertMany(many, 'pulled');
    expect(planOrderSearch(own.db, 'ada lovelace')).toMatchObject({ kind: 'fts' });
    expect(planOrderSearch(own.db, 'lovelace')).toMatchObject({ kind: 'scan' });
    for (const text of ['ada lovelace', 'lovelace ada', 'lovelace', 'ada']) {
      const found = paletteSearch(own, text, 50).orders.map((o) => o.id);
      expect(found).toEqual(expected(many, text, 50));
    }
  });

  it('finds an order by its new name after a change, not by the old one', () => {
    const changed = {
      ...orders[7]!,
      customer: { ...orders[7]!.customer, firstName: 'Hedy', lastName: 'Lamarr' },
    };
    const own = memoryStore();
    own.orders.upsertMany(orders.slice(0, 20), 'pulled');
    expect(paletteSearch(own, 'lamarr', 5).orders).toEqual([]);
    own.orders.upsertMany([changed], 'pulled');
    expect(paletteSearch(own, 'lamarr', 5).orders.map((o) => o.id)).toEqual([changed.id]);
    expect(paletteSearch(own, 'hedy lamarr', 5).patients).toEqual([
      { sourceId: changed.customer.sourceId, name: 'Hedy Lamarr' },
    ]);
    const before = `${orders[7]!.customer.firstName} ${orders[7]!.customer.lastName}`;
    expect(
      paletteSearch(own, `${before} ${orders[7]!.customer.sourceId}`, 5).orders.map((o) => o.id),
    ).not.toContain(changed.id);
  });
});

describe('paletteSearch: protocols', () => {
  // 1,200 protocols: half are Ada, half Lovelace, a quarter Ada Lovelace (300): every trigram of
  // "ada lovelace" is common, and rare together.
  const customers = Array.from({ length: 1200 }, (_, i) => ({
    firstName: i % 2 ? 'Ada' : 'Alan',
    lastName: (i >> 1) % 2 ? 'Lovelace' : 'Kay',
    sourceId: `PAT-${1_000_000 + i * 7}`,
    email: null,
  }));
  const store = memoryStore();
  store.protocols.createDrafts(customers.map((c) => protocolRequest(c)));

  it.each([
    ['a Patient ID, whole', 'PAT-1000700', 1],
    ['a Patient ID, its digits', '1000700', 1],
    ['a Patient ID, its prefix', 'pat-100070', 2],
    ['first and last name (trigrams common, rare together)', 'ada lovelace', 300],
    ['a name and a Patient ID', 'kay pat-1000707', 1],
    ['a name that this Patient ID does not have', 'lovelace pat-1000707', 0],
  ])('finds protocols by %s (%s)', (_, text, matches) => {
    const want = customers.filter((c) => {
      const all = normalizeForSearch(`${c.firstName} ${c.lastName} ${c.sourceId}`);
      return normalizeForSearch(text)
        .split(' ')
        .every((w) => all.includes(w));
    });
    expect(want).toHaveLength(matches);
    const found = paletteSearch(store, text, 50).protocols;
    expect(found).toHaveLength(Math.min(matches, 50));
    for (const p of found) expect(want.map((c) => c.sourceId)).toContain(p.sourceId);
  });
});

describe('paletteSearch: a text of one or two letters a word', () => {
  // The oldest protocol and order are a patient "Xu"'s; SHORT_TEXT_WINDOW newer ones are not.
  const store = memoryStore();
  const xu = { firstName: 'Lin', lastName: 'Xuan', sourceId: 'PAT-9000001', email: null };
  store.protocols.createDrafts([protocolRequest(xu)]);
  store.clock.advance(60_000);
  store.protocols.createDrafts(
    Array.from({ length: SHORT_TEXT_WINDOW }, (_, i) =>
      protocolRequest({
        firstName: 'Ada',
        lastName: 'Kay',
        sourceId: `PAT-${1_000_000 + i}`,
        email: null,
      }),
    ),
  );
  const oldest = { ...order(0), customer: { ...order(0).customer, ...xu } };
  const newer = Array.from({ length: SHORT_TEXT_WINDOW }, (_, i) => order(i + 1));
  store.orders.upsertMany([oldest, ...newer], 'pulled');

  it('looks through the newest protocols and orders only, and says so', () => {
    expect(isShortText('xu')).toBe(true);
    expect(isShortText('xu l')).toBe(true);
    const found = paletteSearch(store, 'xu', 5);
    expect(found).toEqual({ patients: [], protocols: [], orders: [], recentOnly: true });
  });

  it('finds what the newest hold, newest first', () => {
    const found = paletteSearch(store, 'ka', 5);
    expect(found.recentOnly).toBe(true);
    expect(found.protocols).toHaveLength(5);
    expect(found.orders.map((o) => o.id)).toEqual(expected(newer, 'ka', 5));
    expect(found.orders).toHaveLength(5);
  });

  it('searches every protocol and order from the third letter', () => {
    expect(isShortText('xua')).toBe(false);
    const found = paletteSearch(store, 'xua', 5);
    expect(found.recentOnly).toBe(false);
    expect(found.protocols.map((p) => p.sourceId)).toEqual([xu.sourceId]);
    expect(found.orders.map((o) => o.id)).toEqual([oldest.id]);
    expect(found.patients).toEqual([{ sourceId: xu.sourceId, name: 'Lin Xuan' }]);
    // A short word beside a long one: the long one's trigrams search everything.
    expect(paletteSearch(store, 'xuan li', 5).orders.map((o) => o.id)).toEqual([oldest.id]);
  });
});
