import { describe, expect, it } from 'vitest';
import { reviewBatch } from '@main/bulk/batch-review';
import { BatchRejectedError } from '@main/orders/order-requests';
import { keepPricing } from '@main/catalog/partner-pricing';
import { reviewOrder } from '@main/bulk/create-order';
import { SYNC_KEYS } from '@main/db';
import { memoryStore, product, protocolRequest } from '@test/support/store-fixtures';

const UNKNOWN = '7a1f4c52-3a3e-4d3e-9b7c-2f1d4c5b6a70';
const UNKNOWN_DISCOUNT = "Total unknown until the partner's discount can be read.";

/** A duplicate check that finds nothing (the server has no orders of these patients). */
const none = {
  review: async (requests: readonly unknown[]) =>
    requests.map(() => ({ orders: [], sameAs: null, refill: null })),
};

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
  it('estimates each protocol with the shared pricing and the partner discount as last read', async () => {
    const { store, ok } = setup();
    // 1001: 0.50 × 2 pills × 30 days = 30.00 less 10% = 27.00; 1035 external: 20.00 less 10%
    // = 18.00, + 5.00 fee; STANDARD 7.95.
    const known = await reviewBatch(store, [ok, ok], { embedded: true, duplicates: none });
    expect(known.items[0]).toMatchObject({
      localId: ok,
      customerName: 'Ada Lovelace',
      sourceId: 'p-ok',
      estimatedTotal: '57.95',
      problems: [],
    });
    // Its expanded row: each product with its line total, and the price's other parts.
    expect(known.items[0]!.detail).toEqual({
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      lines: [
        expect.objectContaining({ productId: 1001, quantity: 2, external: false, total: '27.00' }),
        expect.objectContaining({
          productId: 1035,
          name: 'Omega Oil',
          external: true,
          total: '18.00',
        }),
      ],
      price: {
        discount: '10%',
        volumeDiscount: '0.00',
        fees: '5.00',
        shipping: '7.95',
        total: '57.95',
      },
    });
    expect(known.items[1]).toMatchObject({
      estimatedTotal: null,
      detail: null,
      problems: [expect.any(String)],
    });
    expect(known).toMatchObject({ estimatedTotal: '57.95', totalUnknown: null, exact: true });
    expect((await reviewBatch(store, [ok], { embedded: false, duplicates: none })).exact).toBe(
      false,
    );
    // A partner with no discount: the list prices, still a known total.
    keepPricing(store, { discount: null, discountValue: null }, store.clock.now());
    expect(await reviewBatch(store, [ok], { embedded: true, duplicates: none })).toMatchObject({
      estimatedTotal: '62.95',
      totalUnknown: null,
      exact: true,
    });
  });

  it('says the total is unknown, never a total without the discount, while it was never read', async () => {
    const { store, ok } = setup({ discountValue: 'never' });
    const review = await reviewBatch(store, [ok, UNKNOWN], { embedded: true, duplicates: none });
    expect(review).toMatchObject({
      estimatedTotal: null,
      totalUnknown: UNKNOWN_DISCOUNT,
      exact: false,
    });
    expect(review.items[0]).toMatchObject({ estimatedTotal: null, problems: [] });
    // Read once (at connect, a sync, the Settings screen): the same review has its total.
    keepPricing(store, { discount: '10%', discountValue: 0.1 }, store.clock.now());
    expect(await reviewBatch(store, [ok], { embedded: false, duplicates: none })).toMatchObject({
      estimatedTotal: '57.95',
      totalUnknown: null,
    });
  });

  it('a stored copy that no longer parses counts as never read', async () => {
    const { store, ok } = setup();
    store.syncState.set(SYNC_KEYS.partnerPricing, { discountValue: 'lots' });
    expect(await reviewBatch(store, [ok], { embedded: true, duplicates: none })).toMatchObject({
      estimatedTotal: null,
      totalUnknown: UNKNOWN_DISCOUNT,
    });
  });

  it('no total while a product of an included protocol is missing from the local catalog', async () => {
    const { store, ok } = setup();
    const missing = store.protocols.createDraft(
      protocolRequest(
        { sourceId: 'p-ext' },
        { lineItems: [{ productId: 4343, quantity: 1, administration: null }] },
      ),
    ).localId;
    const review = await reviewBatch(store, [ok, missing], { embedded: true, duplicates: none });
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

  it('warns about backordered products; counts discontinued and draft ones out as refused', async () => {
    const { store, ok } = setup();
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
    const review = await reviewBatch(store, [localId, ok], { embedded: true, duplicates: none });
    const [item] = review.items;
    expect(item!.problems).toEqual([]);
    expect(item!.estimatedTotal).not.toBeNull();
    // Backordered ships late: a warning. Discontinued and draft: the server's refusal, foreseen
    // by the same rule it decides by, in plain words; the order is out of the total.
    expect(item!.warnings).toEqual([expect.stringMatching(/^Omega Oil \(1035\) is backordered/)]);
    expect(item!.refusals).toEqual([
      'Old Formula is discontinued',
      'New Blend is a draft product, not released yet',
    ]);
    expect(review.estimatedTotal).toBe(review.items[1]!.estimatedTotal);
    // One order (Order now) the server would refuse is refused before its confirmation.
    await expect(
      reviewOrder(store, { protocolLocalId: localId }, { embedded: true, duplicates: none }),
    ).rejects.toMatchObject({
      rejected: [
        {
          problems: [
            { path: 'lineItems.2.productId', message: 'Old Formula is discontinued' },
            {
              path: 'lineItems.3.productId',
              message: 'New Blend is a draft product, not released yet',
            },
          ],
        },
      ],
    });
  });

  it('leaves out what batches.submit would refuse, with the reason, and sums only the rest', async () => {
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
    const review = await reviewBatch(store, [ok, unknownProduct, UNKNOWN], {
      embedded: true,
      duplicates: none,
    });
    expect(review.items.map((i) => [i.sourceId, i.estimatedTotal, i.problems])).toEqual([
      ['p-ok', '57.95', []],
      ['p-missing', null, [expect.stringMatching(/^Product 1 pack description: required/)]],
      ['', null, ['This protocol no longer exists here.']],
    ]);
    expect(review.estimatedTotal).toBe('57.95');
  });
});

describe('orders.review (reviewOrder)', () => {
  it('reviews a protocol as a batch of one, with what the order holds', async () => {
    const { store, ok } = setup();
    const review = await reviewOrder(
      store,
      { protocolLocalId: ok },
      { embedded: false, duplicates: none },
    );
    expect(review).toEqual({
      ...(await reviewBatch(store, [ok], { embedded: false, duplicates: none })),
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

  it('reviews a draft from scratch the same way, and unknown without the discount', async () => {
    const { store } = setup({ discountValue: 'never' });
    const draft = protocolRequest({ sourceId: 'p-scratch', firstName: 'Grace' });
    const review = await reviewOrder(store, { draft }, { embedded: true, duplicates: none });
    expect(review.items).toEqual([
      expect.objectContaining({ localId: '', customerName: 'Grace Lovelace', problems: [] }),
    ]);
    expect(review).toMatchObject({ estimatedTotal: null, totalUnknown: UNKNOWN_DISCOUNT });
    expect(review.order.lines).toHaveLength(2);
  });

  it('refuses what is not a complete order as orders.create would, with each reason', async () => {
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
    await expect(
      reviewOrder(store, { draft }, { embedded: true, duplicates: none }),
    ).rejects.toThrow(BatchRejectedError);
    try {
      await reviewOrder(store, { draft }, { embedded: true, duplicates: none });
    } catch (error) {
      expect((error as BatchRejectedError).rejected[0]!.problems).toEqual([
        expect.objectContaining({ path: 'lineItems.0.packDescription' }),
      ]);
    }
    await expect(
      reviewOrder(store, { protocolLocalId: UNKNOWN }, { embedded: true, duplicates: none }),
    ).rejects.toThrow(BatchRejectedError);
  });
});

describe('the review of possible duplicates', () => {
  it('marks the orders each protocol would repeat, and twins, and leaves them out of the total', async () => {
    const { store, ok } = setup();
    const twin = store.protocols.createDraft(protocolRequest({ sourceId: 'p-ok' })).localId;
    const other = store.protocols.createDraft(protocolRequest({ sourceId: 'p-2' })).localId;
    const seen: unknown[][] = [];
    const found = {
      review: async (requests: readonly { customer: { sourceId: string } }[]) => {
        seen.push([...requests]);
        return requests.map((r, i) =>
          r.customer.sourceId === 'p-2'
            ? {
                orders: [
                  { orderId: 'ord_9', createdAt: '2026-11-20T10:00:00.000Z', status: 'NEW' },
                ],
                sameAs: null,
                refill: null,
              }
            : { orders: [], sameAs: i === 1 ? 0 : null, refill: null },
        );
      },
    };
    const review = await reviewBatch(store, [ok, twin, other], {
      embedded: true,
      duplicates: found,
    });
    expect(seen[0]).toHaveLength(3);
    expect(review.items.map((i) => [i.repeats.length, i.sameAs])).toEqual([
      [0, null],
      [0, ok],
      [1, null],
    ]);
    // Only the first is sent as the review stands: the total is its estimate alone.
    expect(review).toMatchObject({
      estimatedTotal: '57.95',
      duplicateCheck: { checked: true, message: null },
    });
  });

  it('says so when the server could not be read, and holds nothing back', async () => {
    const { store, ok } = setup();
    const failing = {
      review: async () => {
        throw new Error('The server cannot be reached.');
      },
    };
    const review = await reviewBatch(store, [ok], { embedded: true, duplicates: failing });
    expect(review.duplicateCheck.checked).toBe(false);
    expect(review.duplicateCheck.message).toMatch(
      /could not be read.*checked just before it is sent/,
    );
    expect(review.items[0]).toMatchObject({ repeats: [], sameAs: null });
    expect(review.estimatedTotal).toBe('57.95');
  });
});
