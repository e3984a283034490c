import { describe, expect, it } from 'vitest';
import { reviewBatch, reviewOrder } from '../../../src/main/bulk/batch-review';
import { BatchRejectedError } from '../../../src/main/bulk/order-requests';
import { keepPricing } from '../../../src/main/catalog/partner-pricing';
import { SYNC_KEYS } from '../../../src/main/store';
import { memoryStore, product, protocolRequest } from '../../support/store-fixtures';

const UNKNOWN = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';
const UNKNOWN_DISCOUNT = "Total unknown until the partner's discount can be read.";

function setup({ discountValue = 0.1 as number | null | 'never' } = {}) {
  const store = memoryStore();
  store.products.upsertMany([
    product(1001, { price: '0.50' }),
    product(1035, { price: '20.00', external: true, name: 'Omega Oil', status: 'BACKORDERED' }),
    product(1040, { name: 'Old Formula', status: 'DISCONTINUED' }),
  ]);
  if (discountValue !== 'never')
    keepPricing(store, { discount: 'partner discount', discountValue }, store.clock.now());
  const ok = store.protocols.createDraft(protocolRequest({ sourceId: 'p-ok' })).localId;
  return { store, ok };
}

describe('batches.review (reviewBatch)', () => {
  it('estimates each protocol with the shared pricing and the partner discount as last read', () => {
    const { store, ok } = setup();
    // 1001: 0.50 × 2 pills × 30 days = 30.00 less 10% = 27.00; 1035 external: 20.00 less 10%
    // = 18.00, + 5.00 fee; STANDARD 7.95.
    const known = reviewBatch(store, [ok, ok], { embedded: true });
    expect(known.items[0]).toMatchObject({
      localId: ok,
      customerName: 'Ada Lovelace',
      sourceId: 'p-ok',
      estimatedTotal: '57.95',
      problems: [],
    });
    expect(known.items[1]).toMatchObject({ estimatedTotal: null, problems: [expect.any(String)] });
    expect(known).toMatchObject({ estimatedTotal: '57.95', totalUnknown: null, exact: true });
    expect(reviewBatch(store, [ok], { embedded: false }).exact).toBe(false);
    // A partner with no discount: the list prices, still a known total.
    keepPricing(store, { discount: null, discountValue: null }, store.clock.now());
    expect(reviewBatch(store, [ok], { embedded: true })).toMatchObject({
      estimatedTotal: '62.95',
      totalUnknown: null,
      exact: true,
    });
  });

  it('says the total is unknown, never a total without the discount, while it was never read', () => {
    const { store, ok } = setup({ discountValue: 'never' });
    const review = reviewBatch(store, [ok, UNKNOWN], { embedded: true });
    expect(review).toMatchObject({
      estimatedTotal: null,
      totalUnknown: UNKNOWN_DISCOUNT,
      exact: false,
    });
    expect(review.items[0]).toMatchObject({ estimatedTotal: null, problems: [] });
    // Read once (at connect, a sync, the Settings screen): the same review has its total.
    keepPricing(store, { discount: '10%', discountValue: 0.1 }, store.clock.now());
    expect(reviewBatch(store, [ok], { embedded: false })).toMatchObject({
      estimatedTotal: '57.95',
      totalUnknown: null,
    });
  });

  it('a stored copy that no longer parses counts as never read', () => {
    const { store, ok } = setup();
    store.syncState.set(SYNC_KEYS.partnerPricing, { discountValue: 'lots' });
    expect(reviewBatch(store, [ok], { embedded: true })).toMatchObject({
      estimatedTotal: null,
      totalUnknown: UNKNOWN_DISCOUNT,
    });
  });

  it('no total while a product of an included protocol is missing from the local catalog', () => {
    const { store, ok } = setup();
    const missing = store.protocols.createDraft(
      protocolRequest(
        { sourceId: 'p-ext' },
        { lineItems: [{ productId: 4343, quantity: 1, administration: null }] },
      ),
    ).localId;
    const review = reviewBatch(store, [ok, missing], { embedded: true });
    expect(review.items[1]).toMatchObject({
      estimatedTotal: null,
      problems: [],
      warnings: [expect.stringMatching(/^Not every product is in the local catalog/)],
    });
    expect(review).toMatchObject({
      estimatedTotal: null,
      totalUnknown: expect.stringMatching(/^Total unknown until every product is in the catalog/),
      exact: false,
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
      ['p-ok', '57.95', []],
      ['p-missing', null, [expect.stringMatching(/^lineItems\.0\.packDescription: required/)]],
      ['', null, ['This protocol no longer exists here.']],
    ]);
    expect(review.estimatedTotal).toBe('57.95');
  });
});

describe('orders.review (reviewOrder)', () => {
  it('reviews a protocol as a batch of one, with what the order holds', () => {
    const { store, ok } = setup();
    const review = reviewOrder(store, { protocolLocalId: ok }, { embedded: false });
    expect(review).toEqual({
      ...reviewBatch(store, [ok], { embedded: false }),
      order: {
        customerName: 'Ada Lovelace',
        sourceId: 'p-ok',
        daysSupply: 30,
        shippingMethod: 'STANDARD',
        orderType: 'ONE_TIME',
        lines: [
          { productId: 1001, name: 'Product 1001', quantity: 2, external: false },
          { productId: 1035, name: 'Omega Oil', quantity: 1, external: true },
        ],
      },
    });
    expect(review.estimatedTotal).toBe('57.95');
  });

  it('reviews a draft from scratch the same way, and unknown without the discount', () => {
    const { store } = setup({ discountValue: 'never' });
    const draft = protocolRequest({ sourceId: 'p-scratch', firstName: 'Grace' });
    const review = reviewOrder(store, { draft }, { embedded: true });
    expect(review.items).toEqual([
      expect.objectContaining({ localId: '', customerName: 'Grace Lovelace', problems: [] }),
    ]);
    expect(review).toMatchObject({ estimatedTotal: null, totalUnknown: UNKNOWN_DISCOUNT });
    expect(review.order.lines).toHaveLength(2);
  });

  it('refuses what is not a complete order as orders.create would, with each reason', () => {
    const { store } = setup();
    const draft = protocolRequest(
      {},
      {
        lineItems: [
          {
            productId: 4242,
            quantity: 1,
            administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
          },
        ],
      },
    );
    expect(() => reviewOrder(store, { draft }, { embedded: true })).toThrow(BatchRejectedError);
    try {
      reviewOrder(store, { draft }, { embedded: true });
    } catch (error) {
      expect((error as BatchRejectedError).rejected[0]!.problems).toEqual([
        expect.objectContaining({ path: 'lineItems.0.packDescription' }),
      ]);
    }
    expect(() => reviewOrder(store, { protocolLocalId: UNKNOWN }, { embedded: true })).toThrow(
      BatchRejectedError,
    );
  });
});
