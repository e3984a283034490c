import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, currentSupply, daysEarly } from '@main/orders/supply';
import { appOrder, memoryStore, protocolRequest } from '@test/support/store-fixtures';

const at = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * DAY_MS).toISOString();
const order = (id: string, day: number, daysSupply = 30) => ({
  id,
  createdAt: at(day),
  daysSupply,
});

describe('a supply', () => {
  it('adds overlapping orders up, and starts again after it ran out', () => {
    expect(currentSupply([order('a', 0), order('b', 10)])).toEqual({
      runsOutAt: Date.parse(at(60)),
      orders: [order('a', 0), order('b', 10)],
    });
    expect(currentSupply([order('b', 50), order('a', 0)])).toEqual({
      runsOutAt: Date.parse(at(80)),
      orders: [order('b', 50)],
    });
    expect(currentSupply([])).toBeNull();
  });

  it('is due REFILL_LEAD_DAYS whole days before it runs out, and early before that', () => {
    const runsOut = Date.parse(at(30));
    expect(daysEarly(runsOut, Date.parse(at(23)))).toBe(0); // 7 days left
    expect(daysEarly(runsOut, Date.parse(at(22)) + 1)).toBe(0); // 7 days and some hours
    expect(daysEarly(runsOut, Date.parse(at(22)))).toBe(1); // 8 days left
    expect(daysEarly(runsOut, Date.parse(at(10)))).toBe(13);
  });

  it("is the next refill the store's SQL keeps (migration 14), whatever the orders", () => {
    const lineItems = appOrder('x').lineItems.map(({ productId, quantity, administration }) => ({
      productId,
      quantity,
      administration,
    }));
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            day: fc.integer({ min: 0, max: 200 }),
            days: fc.constantFrom(30, 60, 90),
            cancelled: fc.boolean(),
            other: fc.boolean(),
          }),
          { maxLength: 8 },
        ),
        (specs) => {
          const store = memoryStore();
          const p = store.protocols.createDraft(
            protocolRequest({ sourceId: 'p-1' }, { lineItems, daysSupply: 30 }),
          );
          const orders = specs.map((s, i) =>
            appOrder(`o${i}`, {
              customer: { ...appOrder('x').customer, sourceId: 'p-1' },
              createdAt: at(s.day),
              updatedAt: at(s.day),
              daysSupply: s.days,
              status: s.cancelled ? 'CANCELLED' : 'NEW',
              lineItems: appOrder('x').lineItems.map((li) =>
                s.other ? { ...li, quantity: 9 } : li,
              ),
            }),
          );
          store.orders.upsertMany(orders, 'pulled');
          const mine = orders.filter((o, i) => o.status !== 'CANCELLED' && !specs[i]!.other);
          const row = store.db
            .prepare(
              'SELECT refill_at, supply_order_id FROM protocol_columns c JOIN protocols p ON p.seq = c.seq WHERE p.local_id = ?',
            )
            .get(p.localId) as { refill_at: number; supply_order_id: string | null };
          const supply = currentSupply(mine);
          expect(row.refill_at).toBe(supply ? supply.runsOutAt : 8_640_000_000_000_000);
          expect(row.supply_order_id).toBe(supply ? supply.orders.at(-1)!.id : null);
        },
      ),
      { numRuns: 150 },
    );
  });
});
