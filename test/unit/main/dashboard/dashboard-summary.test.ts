import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OrderStatusRead, type AppOrder } from '@shared/api';
import { localDay } from '@shared/dashboard-views';
import { centsToMoney, moneyToCents } from '@shared/money';
import { isStanding } from '@shared/order-outcome';
import { dashboardSummary } from '@main/dashboard/dashboard-summary';
import { refillsDue } from '@main/orders/refills';
import { appOrder, batchOf, memoryStore, protocolRequest } from '@test/support/store-fixtures';

const DAY = 86_400_000;
const STATUSES = ['NEW', 'PROCESSING', 'SHIPPED', 'DELIVERED', 'CANCELLED', 'ON_HOLD'].map((s) =>
  OrderStatusRead.parse(s),
);

/** The local month (YYYY-MM-01) of an instant: the dashboard's months, worked out apart. */
const monthOf = (ms: number) => `${localDay(ms).slice(0, 7)}-01`;

/** An order of 100 of one product, with that name (or none), created at `at`. */
const productOrder = (id: string, at: string, productId: number, name: string | null) =>
  appOrder(id, {
    createdAt: at,
    updatedAt: at,
    totalPrice: '1.00',
    lineItems: [{ ...appOrder('x').lineItems[0]!, productId, quantity: 100, name }],
  });

describe('the dashboard summary, summed in SQL from the mirror', () => {
  const tz = process.env.TZ;
  beforeEach(() => {
    // A zone with daylight saving: the months are the clinic's local ones, not UTC's.
    process.env.TZ = 'America/New_York';
  });
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  /** 600 orders over 14 months (some before the 12 shown), statuses and prices varied. */
  function seeded() {
    const store = memoryStore();
    const now = Date.parse('2026-03-15T16:00:00Z');
    const orders: AppOrder[] = [];
    for (let i = 0; i < 600; i += 1) {
      const at = now - Math.floor((i * 431 * DAY) / 600) - (i % 7) * 3_600_000;
      const cents = 1000 + ((i * 7919) % 50_000);
      orders.push(
        appOrder(`ord_${i}`, {
          status: STATUSES[i % STATUSES.length]!,
          totalPrice: centsToMoney(cents),
          createdAt: new Date(at).toISOString(),
          updatedAt: new Date(at).toISOString(),
          lineItems: [
            { ...appOrder('x').lineItems[0]!, productId: 1000 + (i % 13), quantity: 1 + (i % 4) },
            {
              ...appOrder('x').lineItems[0]!,
              productId: 2000 + (i % 3),
              quantity: 2,
              name: null,
              totalPrice: i % 5 === 0 ? null : '3.10',
              discountedPrice: '1.20',
            },
          ],
        }),
      );
    }
    store.orders.upsertMany(orders, 'pulled');
    return { store, now, orders };
  }

  it('counts and totals each local month by status, cancelled apart, as the orders sum up', () => {
    const { store, now, orders } = seeded();
    const view = dashboardSummary(store, now);
    expect(view.months.map((m) => m.start)).toEqual([
      '2025-04-01',
      '2025-05-01',
      '2025-06-01',
      '2025-07-01',
      '2025-08-01',
      '2025-09-01',
      '2025-10-01',
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
    ]);
    for (const month of view.months) {
      const mine = orders.filter((o) => monthOf(Date.parse(o.createdAt)) === month.start);
      const sum = (list: AppOrder[]) => ({
        orders: list.length,
        amount: centsToMoney(list.reduce((n, o) => n + moneyToCents(o.totalPrice), 0)),
      });
      expect(month.standing).toEqual(sum(mine.filter((o) => isStanding(o.status))));
      expect(month.cancelled).toEqual(sum(mine.filter((o) => !isStanding(o.status))));
      for (const s of month.byStatus)
        expect(s.orders).toBe(mine.filter((o) => o.status === s.status).length);
      expect(month.byStatus.reduce((n, s) => n + s.orders, 0)).toBe(mine.length);
    }
    // A status the app does not know stands (order-outcome.ts), and is listed as it came.
    expect(view.months.at(-1)!.byStatus.map((s) => s.status)).toContain('ON_HOLD');
  });

  it('puts an order in the local month and week of its createdAt, across midnight UTC', () => {
    const store = memoryStore();
    const now = Date.parse('2026-03-15T16:00:00Z');
    // 03:00 UTC on March 1st is still February 28th in New York; Monday 2 March 04:30 UTC is
    // Sunday evening there, the week of Monday 23 February.
    store.orders.upsertMany(
      [
        appOrder('ord_feb', { createdAt: '2026-03-01T03:00:00Z', totalPrice: '10.00' }),
        appOrder('ord_sun', { createdAt: '2026-03-02T04:30:00Z', totalPrice: '1.05' }),
        appOrder('ord_mon', { createdAt: '2026-03-02T05:30:00Z', totalPrice: '2.00' }),
        // The first month shown starts 2025-04-01 04:00 UTC in New York: the product of the
        // order before it is left out, that of the order after it counted.
        productOrder('ord_early', '2025-04-01T03:00:00Z', 7001, 'Early'),
        productOrder('ord_shown', '2025-04-01T04:00:00Z', 7002, 'Shown'),
      ],
      'pulled',
    );
    const view = dashboardSummary(store, now);
    expect(view.topByQuantity.map((p) => [p.productId, p.name])).toEqual([
      [7002, 'Shown'],
      [1001, expect.any(String)],
    ]);
    const month = (start: string) => view.months.find((m) => m.start === start)!;
    expect(month('2026-02-01').standing).toEqual({ orders: 1, amount: '10.00' });
    expect(month('2026-03-01').standing).toEqual({ orders: 2, amount: '3.05' });
    const week = (start: string) => view.weeks.find((w) => w.start === start)!;
    expect(week('2026-02-23').standing).toEqual({ orders: 2, amount: '11.05' });
    expect(week('2026-03-02').standing).toEqual({ orders: 1, amount: '2.00' });
    expect(view.weeks.at(-1)!.start).toBe('2026-03-09');
    expect(view.weeks[0]!.start <= view.months[0]!.start).toBe(true);
  });

  it('puts an order in its local month and week where midnight falls on a 45-minute offset', () => {
    // Kathmandu is UTC+5:45: its midnight is 18:15 UTC the day before, nearer the next UTC
    // midnight than the last, so the quarter hours around it are taken away from whole UTC days.
    process.env.TZ = 'Asia/Kathmandu';
    const store = memoryStore();
    const now = Date.parse('2026-03-15T06:00:00Z');
    store.orders.upsertMany(
      [
        appOrder('ord_feb', { createdAt: '2026-02-28T18:10:00Z', totalPrice: '10.00' }),
        appOrder('ord_mar', { createdAt: '2026-02-28T18:15:00Z', totalPrice: '1.05' }),
        appOrder('ord_utc', { createdAt: '2026-03-01T00:00:00Z', totalPrice: '2.00' }),
        appOrder('ord_sun', { createdAt: '2026-03-01T18:14:59Z', totalPrice: '4.00' }),
        appOrder('ord_mon', { createdAt: '2026-03-01T18:15:00Z', totalPrice: '8.00' }),
        // The first month shown starts 2025-03-31 18:15 UTC in Kathmandu.
        productOrder('ord_early', '2025-03-31T18:14:59Z', 7001, 'Early'),
        productOrder('ord_shown', '2025-03-31T18:15:00Z', 7002, null),
        productOrder('ord_named', '2025-04-01T00:00:00Z', 7002, 'Named'),
      ],
      'pulled',
    );
    const view = dashboardSummary(store, now);
    expect(view.topByQuantity.map((p) => [p.productId, p.name, p.quantity])).toEqual([
      [7002, 'Named', 200],
      [1001, expect.any(String), expect.any(Number)],
    ]);
    const month = (start: string) => view.months.find((m) => m.start === start)!;
    expect(month('2026-02-01').standing).toEqual({ orders: 1, amount: '10.00' });
    expect(month('2026-03-01').standing).toEqual({ orders: 4, amount: '15.05' });
    // Sunday 1 March 23:59 in Kathmandu is the week of Monday 23 February.
    const week = (start: string) => view.weeks.find((w) => w.start === start)!;
    expect(week('2026-02-23').standing).toEqual({ orders: 4, amount: '17.05' });
    expect(week('2026-03-02').standing).toEqual({ orders: 1, amount: '8.00' });
    expect(week('2026-03-02').byStatus.map((s) => s.orders)).toEqual([1]);
  });

  it('ranks the products of the standing orders by quantity and by spend', () => {
    const { store, now, orders } = seeded();
    const view = dashboardSummary(store, now);
    const since = Date.parse('2025-04-01T04:00:00Z'); // local midnight, April 1st 2025
    const figures = new Map<number, { quantity: number; cents: number }>();
    for (const o of orders) {
      if (Date.parse(o.createdAt) < since || !isStanding(o.status)) continue;
      for (const li of o.lineItems) {
        const f = figures.get(li.productId) ?? { quantity: 0, cents: 0 };
        f.quantity += li.quantity;
        f.cents +=
          li.totalPrice === null
            ? moneyToCents(li.discountedPrice) * li.quantity
            : moneyToCents(li.totalPrice);
        figures.set(li.productId, f);
      }
    }
    const expected = (key: 'quantity' | 'cents', other: 'quantity' | 'cents') =>
      [...figures.entries()]
        .sort(([a, x], [b, y]) => y[key] - x[key] || y[other] - x[other] || a - b)
        .slice(0, 10)
        .map(([productId, f]) => ({
          productId,
          quantity: f.quantity,
          amount: centsToMoney(f.cents),
        }));
    expect(view.topByQuantity.map(({ name: _, ...p }) => p)).toEqual(expected('quantity', 'cents'));
    expect(view.topBySpend.map(({ name: _, ...p }) => p)).toEqual(expected('cents', 'quantity'));
    expect(view.topBySpend.find((p) => p.productId === 1001)?.name).toBe('Vitamin D3');
    expect(view.topByQuantity.find((p) => p.productId === 2000)?.name ?? null).toBeNull();
  });

  it('follows a status change: a cancelled order leaves the standing figures and the products', () => {
    const store = memoryStore();
    const now = Date.parse('2026-03-15T16:00:00Z');
    const at = '2026-03-10T15:00:00Z';
    const order = (status: AppOrder['status'], updatedAt: string) =>
      appOrder('ord_1', { status, createdAt: at, updatedAt, totalPrice: '32.00' });
    store.orders.upsertMany([order('NEW', at)], 'pulled');
    const before = dashboardSummary(store, now);
    expect(before.months.at(-1)!.standing).toEqual({ orders: 1, amount: '32.00' });
    expect(before.topByQuantity).toEqual([
      { productId: 1001, name: 'Vitamin D3', quantity: 2, amount: '27.00' },
    ]);
    store.orders.upsertMany([order('CANCELLED', '2026-03-11T15:00:00Z')], 'pulled');
    const after = dashboardSummary(store, now);
    expect(after.months.at(-1)).toMatchObject({
      standing: { orders: 0, amount: '0.00' },
      cancelled: { orders: 1, amount: '32.00' },
    });
    expect(after.topByQuantity).toEqual([]);
  });

  it('keeps order_slices, order_lines, order_days and product_months equal to the orders', () => {
    const { store, orders } = seeded();
    // A status change, a changed body, an order gone: the triggers follow each.
    store.orders.upsertMany(
      [{ ...orders[1]!, status: 'CANCELLED', updatedAt: '2026-03-15T17:00:00Z' }],
      'pulled',
    );
    store.db
      .prepare("UPDATE orders SET body = json_set(body, '$.totalPrice', '1.23') WHERE id = 'ord_2'")
      .run();
    store.db.prepare("DELETE FROM orders WHERE id = 'ord_3'").run();
    const slices = store.db
      .prepare('SELECT slice, status, orders, cents FROM order_slices ORDER BY slice, status')
      .all();
    const fromOrders = store.db
      .prepare(
        `SELECT created_at / 900000 AS slice, status, COUNT(*) AS orders,
           SUM(CAST(replace(json_extract(body, '$.totalPrice'), '.', '') AS INTEGER)) AS cents
         FROM orders GROUP BY created_at / 900000, status ORDER BY slice, status`,
      )
      .all();
    expect(slices).toEqual(fromOrders);
    const days = store.db
      .prepare('SELECT day, status, orders, cents FROM order_days ORDER BY day, status')
      .all();
    const daysFromOrders = store.db
      .prepare(
        `SELECT created_at / 86400000 AS day, status, COUNT(*) AS orders,
           SUM(CAST(replace(json_extract(body, '$.totalPrice'), '.', '') AS INTEGER)) AS cents
         FROM orders GROUP BY created_at / 86400000, status ORDER BY day, status`,
      )
      .all();
    expect(days).toEqual(daysFromOrders);
    expect(days.length).toBeGreaterThan(300);
    const productMonths = store.db
      .prepare(
        `SELECT month, product_id, status, lines, quantity, cents FROM product_months
         ORDER BY month, product_id, status`,
      )
      .all();
    const monthsFromLines = store.db
      .prepare(
        `SELECT CAST(strftime('%Y', created_at / 1000, 'unixepoch') AS INTEGER) * 12
             + CAST(strftime('%m', created_at / 1000, 'unixepoch') AS INTEGER) - 1 AS month,
           product_id, status, COUNT(*) AS lines,
           SUM(quantity) AS quantity, COALESCE(SUM(cents), 0) AS cents
         FROM order_lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      )
      .all();
    expect(productMonths).toEqual(monthsFromLines);
    expect(productMonths.length).toBeGreaterThan(100);
    const lines = store.db
      .prepare(
        'SELECT order_id, seq, status, product_id, quantity FROM order_lines ORDER BY order_id, seq',
      )
      .all();
    const fromBodies = store.db
      .prepare(
        `SELECT o.id AS order_id, li.key AS seq, o.status, json_extract(li.value, '$.productId') AS product_id,
           json_extract(li.value, '$.quantity') AS quantity
         FROM orders o, json_each(o.body, '$.lineItems') li ORDER BY o.id, li.key`,
      )
      .all();
    expect(lines).toEqual(fromBodies);
    expect(lines.length).toBe(2 * (orders.length - 1));
  });

  it('lays the refills due within 30 days by the day they run out, with the Refills due rule', () => {
    const store = memoryStore();
    const now = store.clock.now();
    const lineItems = appOrder('x').lineItems.map(({ productId, quantity, administration }) => ({
      productId,
      quantity,
      administration,
    }));
    const order = (id: string, sourceId: string, daysAgo: number) =>
      appOrder(id, {
        customer: { ...appOrder('x').customer, sourceId },
        createdAt: new Date(now - daysAgo * DAY).toISOString(),
        updatedAt: new Date(now - daysAgo * DAY).toISOString(),
      });
    const ids = ['a', 'b', 'c', 'd', 'e'].map((k) => {
      store.protocols.createDraft(protocolRequest({ sourceId: `p-${k}` }, { lineItems }));
      return `p-${k}`;
    });
    store.orders.upsertMany(
      [
        order('o_a', ids[0]!, 25), // 5 days left
        order('o_b', ids[1]!, 25), // the same day
        order('o_c', ids[2]!, 10), // 20 days left
        order('o_d', ids[3]!, 40), // ran out 10 days ago
        order('o_e', ids[4]!, 1), // 29 days left
      ],
      'pulled',
    );
    const view = dashboardSummary(store, now);
    const due = refillsDue(store, now, 30).due;
    expect(view.refills.overdue).toBe(due.filter((r) => r.daysLeft < 0).length);
    expect(view.refills.overdue).toBe(1);
    expect(view.refills.days).toEqual([
      { day: localDay(now + 5 * DAY), refills: 2 },
      { day: localDay(now + 20 * DAY), refills: 1 },
      { day: localDay(now + 29 * DAY), refills: 1 },
    ]);
  });

  it('counts the batches of the last 30 days as the batch screens do', () => {
    const store = memoryStore();
    const now = store.clock.now();
    const batch = batchOf(store, 3);
    expect(dashboardSummary(store, now).batches).toEqual({
      batches: 1,
      created: 0,
      refused: 0,
      possibleDuplicates: 0,
      days: [
        {
          day: localDay(batch.createdAt),
          batches: 1,
          created: 0,
          refused: 0,
          possibleDuplicates: 0,
        },
      ],
    });
    // Thirty-one days on, it is out of the window.
    expect(dashboardSummary(store, now + 31 * DAY).batches.batches).toBe(0);
  });
});
