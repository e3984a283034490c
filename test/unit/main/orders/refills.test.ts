import { describe, expect, it } from 'vitest';
import { refillsDue } from '@main/orders/refills';
import { appOrder, memoryStore, protocolRequest } from '@test/support/store-fixtures';

const DAY = 86_400_000;

describe('refills due', () => {
  function seeded() {
    const store = memoryStore();
    const now = store.clock.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    // The protocols' content: the lines of the fixture's order (supply.ts matches on content).
    const lineItems = appOrder('x').lineItems.map(({ productId, quantity, administration }) => ({
      productId,
      quantity,
      administration,
    }));
    const protocol = (sourceId: string, firstName: string, daysSupply: 30 | 60 | 90 = 30) =>
      store.protocols.createDraft(
        protocolRequest({ sourceId, firstName }, { lineItems, daysSupply }),
      ).localId;
    const ids = {
      soon: protocol('p-soon', 'Soon'), // 30-day order 25 days ago: 5 days left
      late: protocol('p-late', 'Late'), // 30-day order 40 days ago: ran out 10 days ago
      far: protocol('p-far', 'Far', 90), // 90-day order 10 days ago: 80 days left
      newer: protocol('p-newer', 'Newer'), // an old order, then a recent one: the recent counts
      cancelled: protocol('p-cancelled', 'Cancelled'), // only a cancelled order: never ordered
      never: protocol('p-never', 'Never'),
      gone: protocol('p-gone', 'Gone'), // deleted: left out
    };
    const order = (id: string, sourceId: string, daysAgo: number, extra = {}) =>
      appOrder(id, {
        customer: { ...appOrder('x').customer, sourceId },
        createdAt: iso(now - daysAgo * DAY),
        updatedAt: iso(now - daysAgo * DAY),
        ...extra,
      });
    store.orders.upsertMany(
      [
        order('ord_soon', 'p-soon', 25),
        order('ord_late', 'p-late', 40),
        order('ord_far', 'p-far', 10, { daysSupply: 90 }),
        order('ord_old', 'p-newer', 100),
        order('ord_new', 'p-newer', 2),
        order('ord_cx', 'p-cancelled', 20, { status: 'CANCELLED' }),
        order('ord_gone', 'p-gone', 29),
      ],
      'pulled',
    );
    store.protocols.deleteDraft(ids.gone);
    return { store, now, ids };
  }

  it('lists the protocols whose last order runs out within the days asked, soonest first', () => {
    const { store, now, ids } = seeded();
    const { due, neverOrdered } = refillsDue(store, now, 7);
    expect(due.map((d) => [d.protocol.localId, d.lastOrderId, d.daysLeft])).toEqual([
      [ids.late, 'ord_late', -10],
      [ids.soon, 'ord_soon', 5],
    ]);
    expect(due[1]).toMatchObject({
      daysSupply: 30,
      runsOutAt: now + 5 * DAY,
      lastOrderedAt: new Date(now - 25 * DAY).toISOString(),
    });
    expect(neverOrdered.map((p) => p.localId).sort()).toEqual([ids.cancelled, ids.never].sort());
  });

  it('adds up overlapping orders, counts only the same content, and says how early', () => {
    const { store, now, ids } = seeded();
    const o = (id: string, sourceId: string, daysAgo: number, extra = {}) =>
      appOrder(id, {
        customer: { ...appOrder('x').customer, sourceId },
        createdAt: new Date(now - daysAgo * DAY).toISOString(),
        updatedAt: new Date(now - daysAgo * DAY).toISOString(),
        ...extra,
      });
    // Soon: a second 30-day order 20 days ago: the supply runs out 35 days from now, not 10.
    store.orders.upsertMany([o('ord_soon2', 'p-soon', 20)], 'pulled');
    // Late: an order of other products is not its supply: still ran out 10 days ago.
    const other = [{ ...appOrder('x').lineItems[0]!, productId: 1099 }];
    store.orders.upsertMany([o('ord_other', 'p-late', 1, { lineItems: other })], 'pulled');
    const due = refillsDue(store, now, 60).due;
    expect(due.map((d) => [d.protocol.localId, d.lastOrderId, d.daysLeft, d.daysEarly])).toEqual([
      [ids.late, 'ord_late', -10, 0],
      [ids.newer, 'ord_new', 28, 21],
      [ids.soon, 'ord_soon2', 35, 28],
    ]);
  });

  it('widens with the horizon, and a newer order replaces an older one', () => {
    const { store, now, ids } = seeded();
    const wide = refillsDue(store, now, 90).due.map((d) => [d.protocol.localId, d.daysLeft]);
    expect(wide).toEqual([
      [ids.late, -10],
      [ids.soon, 5],
      [ids.newer, 28],
      [ids.far, 80],
    ]);
    expect(refillsDue(store, now, 0).due.map((d) => d.protocol.localId)).toEqual([ids.late]);
  });
});
