import { describe, expect, it } from 'vitest';
import { rememberDiscount, reviewBatch } from '../../../src/main/bulk/batch-review';
import { memoryStore, product, protocolRequest } from '../../support/store-fixtures';

const UNKNOWN = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';

function setup() {
  const store = memoryStore();
  store.products.upsertMany([
    product(1001, { price: '0.50' }),
    product(1035, { price: '20.00', external: true, name: 'Omega Oil', status: 'BACKORDERED' }),
    product(1040, { name: 'Old Formula', status: 'DISCONTINUED' }),
  ]);
  const ok = store.protocols.createDraft(protocolRequest({ sourceId: 'p-ok' })).localId;
  return { store, ok };
}

describe('batches.review (reviewBatch)', () => {
  it('estimates each protocol with the shared pricing and the discount as last known', () => {
    const { store, ok } = setup();
    // 1001: 0.50 × 2 pills × 30 days = 30.00; 1035 external: 20.00 + 5.00 fee; STANDARD 7.95.
    const never = reviewBatch(store, [ok], { embedded: true });
    expect(never.items[0]).toMatchObject({
      localId: ok,
      customerName: 'Ada Lovelace',
      sourceId: 'p-ok',
      estimatedTotal: '62.95',
      problems: [],
    });
    expect(never).toMatchObject({ estimatedTotal: '62.95', exact: false });
    rememberDiscount(store, 0.1);
    const known = reviewBatch(store, [ok, ok], { embedded: true });
    // 10% off the items (27.00 + 18.00), not the fee or shipping.
    expect(known.items[0]!.estimatedTotal).toBe('57.95');
    expect(known.items[1]).toMatchObject({ estimatedTotal: null, problems: [expect.any(String)] });
    expect(known).toMatchObject({ estimatedTotal: '57.95', exact: true });
    expect(reviewBatch(store, [ok], { embedded: false }).exact).toBe(false);
    rememberDiscount(store, null);
    expect(reviewBatch(store, [ok], { embedded: true })).toMatchObject({
      estimatedTotal: '62.95',
      exact: true,
    });
  });

  it('warns about backordered, discontinued and draft products and still counts them in', () => {
    const { store } = setup();
    store.products.upsertMany([product(1050, { name: 'New Blend', status: 'DRAFT' })]);
    const lines = protocolRequest().lineItems;
    const localId = store.protocols.createDraft(
      protocolRequest(
        { sourceId: 'p-warn' },
        {
          lineItems: [
            ...lines,
            {
              productId: 1040,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
            {
              productId: 1050,
              quantity: 1,
              administration: { morning: 0, afternoon: 0, evening: 0, sleep: 1 },
            },
          ],
        },
      ),
    ).localId;
    const [item] = reviewBatch(store, [localId], { embedded: true }).items;
    expect(item!.problems).toEqual([]);
    expect(item!.estimatedTotal).not.toBeNull();
    expect(item!.warnings).toEqual([
      expect.stringMatching(/^Omega Oil \(1035\) is backordered/),
      expect.stringMatching(/^Old Formula \(1040\) is discontinued/),
      expect.stringMatching(/^New Blend \(1050\) is a draft product/),
    ]);
  });

  it('leaves out what batches.submit would refuse, with the reason, and sums only the rest', () => {
    const { store, ok } = setup();
    const unknownProduct = store.protocols.createDraft(
      protocolRequest(
        { sourceId: 'p-missing' },
        {
          lineItems: [
            {
              productId: 4242,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        },
      ),
    ).localId;
    const review = reviewBatch(store, [ok, unknownProduct, UNKNOWN], { embedded: true });
    expect(review.items.map((i) => [i.sourceId, i.estimatedTotal, i.problems])).toEqual([
      ['p-ok', '62.95', []],
      ['p-missing', null, [expect.stringMatching(/^lineItems\.0\.packDescription: required/)]],
      ['', null, ['This protocol no longer exists here.']],
    ]);
    expect(review.estimatedTotal).toBe('62.95');
  });
});
