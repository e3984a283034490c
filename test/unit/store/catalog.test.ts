import { describe, expect, it } from 'vitest';
import { memoryStore, product } from '../../support/store-fixtures';

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
