import { describe, expect, it } from 'vitest';
import { memoryStore, product } from '@test/support/store-fixtures';

describe('ProductsRepo', () => {
  it('upserts, reads, filters by status and searches by part of the name', () => {
    const store = memoryStore();
    expect(store.products.count()).toBe(0);
    store.products.upsertMany([
      product(1, { name: 'Vitamin D3', updatedAt: '2025-01-02T00:00:00Z' }),
      product(2, { name: 'Magnesium Glycinate', status: 'BACKORDERED' }),
      product(3, {
        name: 'Fish Oil',
        status: 'DISCONTINUED',
        updatedAt: '2025-01-03T00:00:00+02:00',
      }),
    ]);
    store.products.upsertMany([
      product(1, { name: 'Vitamin D3 + K2', updatedAt: '2025-01-05T00:00:00Z' }),
    ]);
    expect(store.products.count()).toBe(3);
    expect(store.products.get(1)?.name).toBe('Vitamin D3 + K2');
    expect(store.products.get(99)).toBeNull();
    expect(store.products.list().map((p) => p.id)).toEqual([3, 2, 1]);
    expect(store.products.list({ status: ['ACTIVE', 'BACKORDERED'] }).map((p) => p.id)).toEqual([
      2, 1,
    ]);
    expect(store.products.list({ status: 'DISCONTINUED' }).map((p) => p.id)).toEqual([3]);
    expect(store.products.list({ search: 'GLYC' }).map((p) => p.id)).toEqual([2]);
    expect(store.products.list({ search: '100%' })).toEqual([]);
    expect(store.products.list({ limit: 1, offset: 1 }).map((p) => p.id)).toEqual([2]);
  });

  it('search matches every word of the query, ignoring punctuation (issue 12: "omega 3")', () => {
    const store = memoryStore();
    store.products.upsertMany([
      product(1, { name: 'Omega-3 Fish Oil 1000 mg' }),
      product(2, { name: 'Vitamin B-12 Methylcobalamin' }),
      product(3, { name: 'Fish Collagen Peptides' }),
      product(4, { name: 'Vitamin D3 + K2' }),
    ]);
    const ids = (search: string) => store.products.list({ search }).map((p) => p.id);
    expect(ids('omega-3')).toEqual([1]);
    expect(ids('omega 3')).toEqual([1]);
    expect(ids('Omega3')).toEqual([1]);
    expect(ids('  OMEGA,   3 ')).toEqual([1]);
    expect(ids('3 omega')).toEqual([1]);
    expect(ids('fish oil')).toEqual([1]);
    expect(ids('fish')).toEqual([3, 1]);
    expect(ids('b12')).toEqual([2]);
    expect(ids('vitamin k2')).toEqual([4]);
    expect(ids('omega 6')).toEqual([]);
    expect(ids('---')).toHaveLength(4); // no word: no filter
    expect(store.products.countMatching({ search: 'omega 3' })).toBe(1);
    // LIKE wildcards are plain characters (and dropped as punctuation).
    expect(ids('%')).toHaveLength(4);
    expect(ids('_a_')).toEqual(ids('a'));
  });

  it('reads many by id, leaving out unknown ids', () => {
    const store = memoryStore();
    store.products.upsertMany([product(1), product(2)]);
    const found = store.products.byIds([2, 1, 2, 7]);
    expect([...found.keys()].sort()).toEqual([1, 2]);
    expect(found.get(2)?.id).toBe(2);
  });
});

describe('ShippingMethodsRepo', () => {
  it('replaces the list as a whole, keeping the server order', () => {
    const store = memoryStore();
    const m = (id: 'STANDARD' | 'EXPRESS' | 'OVERNIGHT', price: string) => ({
      id,
      name: id,
      description: '',
      price,
      minDays: 1,
      maxDays: 5,
    });
    store.shippingMethods.replaceAll([m('OVERNIGHT', '30.00'), m('STANDARD', '5.00')]);
    expect(store.shippingMethods.list().map((x) => x.id)).toEqual(['OVERNIGHT', 'STANDARD']);
    store.shippingMethods.replaceAll([m('STANDARD', '6.00'), m('EXPRESS', '15.00')]);
    expect(store.shippingMethods.list().map((x) => x.id)).toEqual(['STANDARD', 'EXPRESS']);
    expect(store.shippingMethods.get('STANDARD')?.price).toBe('6.00');
    expect(store.shippingMethods.get('OVERNIGHT')).toBeNull();
  });
});
