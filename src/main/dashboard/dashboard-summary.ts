import { z } from 'zod';
import { OrderStatusRead } from '@shared/api';
import {
  DASHBOARD_BATCH_DAYS,
  DASHBOARD_MONTHS,
  DASHBOARD_REFILL_DAYS,
  DASHBOARD_TOP_PRODUCTS,
  localDay,
  type DashboardView,
  type OrderPeriod,
  type ProductFigure,
} from '@shared/dashboard-views';
import { centsToMoney } from '@shared/money';
import { isStanding } from '@shared/order-outcome';
import { parseRow, prepareCached } from '../db/rows';
import { refillsDue } from '../orders/refills';
import type { LocalStore } from '../stores/local-store';

/**
 * Orders are summed by UTC day (order_days, migration 18) and by quarter hour (order_slices,
 * migration 16) of their createdAt as they are written (whole numbers, no time zone in SQL). A
 * local week or month is the UTC days from the UTC midnight nearest its first local midnight to
 * the one nearest its end, corrected by the quarter hours between each local midnight and its
 * nearest UTC midnight: every time zone's offset is a whole number of quarter hours, so a local
 * midnight is always the edge of a quarter hour.
 */
const SLICE_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

const DayRow = z.object({
  day: z.int(),
  status: OrderStatusRead,
  orders: z.int(),
  cents: z.int(),
});

const StatusSumRow = z.object({
  status: OrderStatusRead,
  n: z.int(),
  cents: z.int().nullable(),
});

const ProductMonthRow = z.object({
  product_id: z.int(),
  status: OrderStatusRead,
  lines: z.int(),
  quantity: z.int(),
  cents: z.int(),
});

const NameRow = z.object({ name: z.string().nullable() });

interface ProductSum {
  quantity: number;
  cents: number;
}

const productKey = (row: unknown) =>
  `product=${String((row as { product_id: unknown }).product_id)}`;

const BatchRow = z.object({ id: z.string(), created_at: z.int() });

/** Local midnight of the first day of the month `delta` months from the month of `ms`. */
function monthStart(ms: number, delta: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth() + delta, 1).getTime();
}

/** Local midnight of the Monday of the week of `ms`, moved `deltaWeeks`. */
function weekStart(ms: number, deltaWeeks = 0): number {
  const d = new Date(ms);
  const back = (d.getDay() + 6) % 7;
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - back + 7 * deltaWeeks).getTime();
}

/** Local midnight of the day of `ms`, moved `deltaDays`. */
function dayStart(ms: number, deltaDays = 0): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + deltaDays).getTime();
}

interface Tally {
  orders: number;
  cents: number;
}

class PeriodTally {
  readonly byStatus = new Map<OrderStatusRead, Tally>();
  /** Adds (sign 1) or takes away (sign -1) the orders of a status and their cents. */
  add(status: OrderStatusRead, orders: number, amount: number, sign: 1 | -1 = 1) {
    const t = this.byStatus.get(status) ?? { orders: 0, cents: 0 };
    t.orders += sign * orders;
    t.cents += sign * amount;
    this.byStatus.set(status, t);
  }
  view(start: number): OrderPeriod {
    const standing = { orders: 0, cents: 0 };
    const cancelled = { orders: 0, cents: 0 };
    const byStatus = [...this.byStatus.entries()]
      // A status whose orders the edges took away again had none in the period.
      .filter(([, t]) => t.orders !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([status, t]) => {
        const side = isStanding(status) ? standing : cancelled;
        side.orders += t.orders;
        side.cents += t.cents;
        return { status, orders: t.orders, amount: centsToMoney(t.cents) };
      });
    return {
      start: localDay(start),
      byStatus,
      standing: { orders: standing.orders, amount: centsToMoney(standing.cents) },
      cancelled: { orders: cancelled.orders, amount: centsToMoney(cancelled.cents) },
    };
  }
}

/** The UTC day (epoch ms / DAY_MS) whose midnight is nearest `ms`: at most 12 hours away. */
const nearestUtcDay = (ms: number) => Math.round(ms / DAY_MS);

/** Orders by local week and month over the last 12 months, by status; standing and cancelled apart. */
function orderPeriods(store: LocalStore, now: number): Pick<DashboardView, 'months' | 'weeks'> {
  const monthStarts = Array.from({ length: DASHBOARD_MONTHS }, (_, i) =>
    monthStart(now, i - DASHBOARD_MONTHS + 1),
  );
  const firstWeek = weekStart(monthStarts[0]!);
  const weekStarts: number[] = [];
  for (let w = firstWeek, i = 0; w <= now; i += 1, w = weekStart(firstWeek, i)) weekStarts.push(w);
  const monthEnds = [...monthStarts.slice(1), monthStart(now, 1)];
  const weekEnds = [...weekStarts.slice(1), weekStart(now, 1)];
  const edges = [...monthStarts, ...monthEnds, ...weekStarts, ...weekEnds];

  // order_days (migration 18): the orders by UTC day and status, in day order (its key).
  const days = prepareCached(
    store.db,
    'SELECT day, status, orders, cents FROM order_days WHERE day >= ? AND day < ? ORDER BY day',
  )
    .all(Math.min(...edges.map(nearestUtcDay)), Math.max(...edges.map(nearestUtcDay)))
    .map((row) => parseRow(DayRow, row, 'orders', `day=${String((row as { day: unknown }).day)}`));
  /** The index of the first day row on or after `day`. */
  const dayIndex = (day: number) => {
    let lo = 0;
    let hi = days.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (days[mid]!.day < day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  // order_slices (migration 16): the quarter hours between a local midnight and the UTC
  // midnight nearest it, summed by status; added when the midnight comes after, else taken away.
  const sliceSums = prepareCached(
    store.db,
    `SELECT status, SUM(orders) AS n, SUM(cents) AS cents FROM order_slices
     WHERE slice >= ? AND slice < ? GROUP BY status`,
  );
  const edgeSums = new Map<number, { sign: 1 | -1; rows: z.infer<typeof StatusSumRow>[] }>();
  const edgeOf = (ms: number) => {
    const known = edgeSums.get(ms);
    if (known) return known;
    const utc = nearestUtcDay(ms) * DAY_MS;
    const [from, to, sign] = ms >= utc ? [utc, ms, 1 as const] : [ms, utc, -1 as const];
    const rows =
      from === to
        ? []
        : sliceSums
            .all(from / SLICE_MS, to / SLICE_MS)
            .map((row) => parseRow(StatusSumRow, row, 'orders', `edge=${ms}`));
    const edge = { sign, rows };
    edgeSums.set(ms, edge);
    return edge;
  };

  /** [start, end): its UTC days, less the quarter hours before start, plus those before end. */
  const period = (start: number, end: number) => {
    const tally = new PeriodTally();
    const last = nearestUtcDay(end);
    for (let i = dayIndex(nearestUtcDay(start)); i < days.length && days[i]!.day < last; i += 1) {
      const d = days[i]!;
      tally.add(d.status, d.orders, d.cents);
    }
    const before = edgeOf(start);
    for (const r of before.rows) tally.add(r.status, r.n, r.cents ?? 0, before.sign === 1 ? -1 : 1);
    const after = edgeOf(end);
    for (const r of after.rows) tally.add(r.status, r.n, r.cents ?? 0, after.sign);
    return tally.view(start);
  };
  return {
    months: monthStarts.map((start, i) => period(start, monthEnds[i]!)),
    weeks: weekStarts.map((start, i) => period(start, weekEnds[i]!)),
  };
}

/**
 * The products of the standing orders of the months shown (isStanding, as every total), by
 * quantity and by spend: a line's spend is its totalPrice, or its discounted price times its
 * quantity when the server sent no line total (1.0.1).
 */
function topProducts(
  store: LocalStore,
  since: number,
): Pick<DashboardView, 'topByQuantity' | 'topBySpend'> {
  // product_months (migration 18): the lines by UTC month, product, status and name, from the
  // UTC month whose start is nearest `since`; the lines between that start and `since` come from
  // order_lines by createdAt, taken away (since after it) or added (since before it).
  const at = new Date(since);
  const month = at.getUTCFullYear() * 12 + at.getUTCMonth();
  const startOf = (m: number) => Date.UTC(Math.floor(m / 12), m % 12, 1);
  const first = since - startOf(month) <= startOf(month + 1) - since ? month : month + 1;
  const groups = new Map<
    string,
    { status: OrderStatusRead } & ProductSum & { productId: number; lines: number }
  >();
  const add = (r: z.infer<typeof ProductMonthRow>, sign: 1 | -1) => {
    const key = `${r.product_id} ${r.status}`;
    const g = groups.get(key) ?? {
      productId: r.product_id,
      status: r.status,
      lines: 0,
      quantity: 0,
      cents: 0,
    };
    g.lines += sign * r.lines;
    g.quantity += sign * r.quantity;
    g.cents += sign * r.cents;
    groups.set(key, g);
  };
  for (const row of prepareCached(
    store.db,
    `SELECT product_id, status, SUM(lines) AS lines, SUM(quantity) AS quantity,
       SUM(cents) AS cents
     FROM product_months WHERE month >= ? GROUP BY product_id, status`,
  ).all(first))
    add(parseRow(ProductMonthRow, row, 'orders', productKey(row)), 1);
  const [from, to, sign] =
    first === month ? [startOf(month), since, -1 as const] : [since, startOf(first), 1 as const];
  for (const row of prepareCached(
    store.db,
    `SELECT product_id, status, 1 AS lines, quantity, COALESCE(cents, 0) AS cents
     FROM order_lines WHERE created_at >= ? AND created_at < ?`,
  ).all(from, to))
    add(parseRow(ProductMonthRow, row, 'orders', productKey(row)), sign);

  const products = new Map<number, ProductSum>();
  for (const g of groups.values()) {
    if (g.lines === 0 || !isStanding(g.status)) continue;
    const p = products.get(g.productId) ?? { quantity: 0, cents: 0 };
    p.quantity += g.quantity;
    p.cents += g.cents;
    products.set(g.productId, p);
  }
  const all = [...products.entries()].map(([productId, p]) => ({ productId, ...p }));
  // The greatest name the product's lines carry (order_lines_names: one step per product).
  const nameOf = prepareCached(
    store.db,
    'SELECT MAX(name) AS name FROM order_lines WHERE product_id = ?',
  );
  const view = (p: (typeof all)[number]): ProductFigure => ({
    productId: p.productId,
    name: parseRow(
      NameRow,
      nameOf.get(p.productId),
      'orders',
      productKey({ product_id: p.productId }),
    ).name,
    quantity: p.quantity,
    amount: centsToMoney(p.cents),
  });
  const top = (key: 'quantity' | 'cents', other: 'quantity' | 'cents') =>
    [...all]
      .sort((a, b) => b[key] - a[key] || b[other] - a[other] || a.productId - b.productId)
      .slice(0, DASHBOARD_TOP_PRODUCTS)
      .map(view);
  return { topByQuantity: top('quantity', 'cents'), topBySpend: top('cents', 'quantity') };
}

/** Refills due within 30 days (refills.ts: the one rule), by the local day their supply runs out. */
function refillDays(store: LocalStore, now: number): DashboardView['refills'] {
  const { due } = refillsDue(store, now, DASHBOARD_REFILL_DAYS);
  let overdue = 0;
  const days = new Map<string, number>();
  for (const r of due) {
    if (r.daysLeft < 0) overdue += 1;
    else {
      const day = localDay(r.runsOutAt);
      days.set(day, (days.get(day) ?? 0) + 1);
    }
  }
  return {
    overdue,
    days: [...days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([day, refills]) => ({ day, refills })),
  };
}

/**
 * The batches made in the last 30 local days (today included), each counted as the batch screens
 * count it: created orders as mirrored, refusals (BatchesRepo.outcome), possible duplicates left
 * to look at (OrdersRepo.possibleDuplicateCount).
 */
function recentBatches(store: LocalStore, now: number): DashboardView['batches'] {
  const rows = prepareCached(
    store.db,
    'SELECT id, created_at FROM batches WHERE created_at >= ? ORDER BY created_at, id',
  ).all(dayStart(now, 1 - DASHBOARD_BATCH_DAYS));
  const total = { batches: 0, created: 0, refused: 0, possibleDuplicates: 0 };
  const days = new Map<string, typeof total>();
  for (const row of rows) {
    const b = parseRow(BatchRow, row, 'batches', `id=${(row as { id: unknown }).id}`);
    const outcome = store.batches.outcome(b.id);
    const figures = {
      batches: 1,
      created: outcome.standing.orders + outcome.cancelled.orders,
      refused: outcome.refused,
      possibleDuplicates: store.orders.possibleDuplicateCount(b.id).open,
    };
    const day = localDay(b.created_at);
    const sum = days.get(day) ?? { batches: 0, created: 0, refused: 0, possibleDuplicates: 0 };
    for (const key of Object.keys(figures) as (keyof typeof figures)[]) {
      sum[key] += figures[key];
      total[key] += figures[key];
    }
    days.set(day, sum);
  }
  return { ...total, days: [...days.entries()].map(([day, f]) => ({ day, ...f })) };
}

/**
 * The dashboard's figures at `now` (the server's time, as the orders' createdAt), in the
 * computer's local calendar: docs/decisions.md, "Dashboard".
 */
export function dashboardSummary(store: LocalStore, now: number): DashboardView {
  const periods = orderPeriods(store, now);
  const since = monthStart(now, 1 - DASHBOARD_MONTHS);
  return {
    asOf: new Date(now).toISOString(),
    ...periods,
    ...topProducts(store, since),
    refills: refillDays(store, now),
    batches: recentBatches(store, now),
  };
}
