import { describe, expect, it } from 'vitest';
import { ProductRead } from '@shared/api';
import { IPC_CALLS } from '@shared/ipc';
import { notOrderableReason, pickerRank } from '@shared/api/product-status';
import { memoryStore, product } from '@test/support/store-fixtures';

describe("the editor's product picker: what can be ordered first", () => {
  it('lists active, then backordered, then unknown, then draft and discontinued, each by name', () => {
    const store = memoryStore();
    store.products.upsertMany([
      product(1, { name: 'Alpha Draft', status: 'DRAFT' }),
      product(2, { name: 'Beta Discontinued', status: 'DISCONTINUED' }),
      product(3, { name: 'Zinc', status: 'ACTIVE' }),
      product(4, { name: 'Copper', status: 'BACKORDERED' }),
      product(5, { name: 'Boron', status: 'ACTIVE' }),
      product(6, { name: 'Aloe', status: 'BACKORDERED' }),
      // A status the app does not know, as a server may send it (the mirror keeps it).
      ProductRead.parse({ ...product(7, { name: 'Alpha Held' }), status: 'ON_HOLD' }),
    ]);
    const names = (sort?: 'name' | 'orderable') =>
      store.products.list({ ...(sort ? { sort } : {}) }).map((p) => p.name);
    expect(names('orderable')).toEqual([
      'Boron',
      'Zinc',
      'Aloe',
      'Copper',
      'Alpha Held',
      'Alpha Draft',
      'Beta Discontinued',
    ]);
    // The catalog screen keeps its order by name.
    expect(names()).toEqual([
      'Aloe',
      'Alpha Draft',
      'Alpha Held',
      'Beta Discontinued',
      'Boron',
      'Copper',
      'Zinc',
    ]);
    // The first page of a picker's search holds what can be ordered, not drafts named "A...".
    expect(store.products.list({ sort: 'orderable', limit: 2 }).map((p) => p.status)).toEqual([
      'ACTIVE',
      'ACTIVE',
    ]);
  });

  it('says why draft and discontinued products cannot be picked, and leaves the rest', () => {
    expect(notOrderableReason('DRAFT')).toMatch(/cannot be ordered/);
    expect(notOrderableReason('DISCONTINUED')).toMatch(/cannot be ordered/);
    expect(notOrderableReason('ACTIVE')).toBeNull();
    expect(notOrderableReason('BACKORDERED')).toBeNull();
    expect(notOrderableReason('ON_HOLD')).toBeNull();
    expect(['ACTIVE', 'BACKORDERED', 'ON_HOLD', 'DRAFT', 'DISCONTINUED'].map(pickerRank)).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it('the contract takes the sort, by name unless asked', () => {
    const args = IPC_CALLS['catalog.products'].args;
    expect(args.parse({}).sort).toBe('name');
    expect(args.parse({ sort: 'orderable' }).sort).toBe('orderable');
    expect(args.safeParse({ sort: 'price' }).success).toBe(false);
  });
});
