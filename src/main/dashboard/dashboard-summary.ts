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
 * Orders are summed by quarter hour of their createdAt (whole numbers, no time zone in SQL) as
 * they are written (order_slices, migration 16), then the quarter hours are put in the local
 * weeks and months here: every time zone's offset is a whole number of quarter hours, so a
 * quarter hour never straddles a local midnight.
 */
const SLICE_MS = 15 * 60_000;

const DayRow = z.object({
  day: z.int(),
  status: OrderStatusRead,
  n: z.int(),
  cents: z.int().nullable(),
});

const ProductRow = z.object({
  product_id: z.int(),
  status: OrderStatusRead,
  name: z.string().nullable(),
  quantity: z.int().nullable(),
  cents: z.int().nullable(),
});

const BatchRow = z.object({ id: z.string(), created_at: z.int() });

const DAY_MS = 86_400_000;

/** The computer's UTC offset at `ms`, in ms (east positive). */
const offsetAt = (ms: number) => -new Date(ms).getTimezoneOffset() * 60_000;

/**
 * [from, to) cut where the local UTC offset changes (daylight saving: a few times a year), each
 * span with its offset; both ends on quarter hours, as offsets change only on them.
 */
function offsetSpans(from: number, to: number): { from: number; to: number; offsetMs: number }[] {
  const spans: { from: number; to: number; offsetMs: number }[] = [];
  let start = from;
  let offset = offsetAt(from);
  for (let t = from + SLICE_MS; t < to; t += SLICE_MS) {
    // Looked at hour by hour, then the quarter hour it changed at.
    if ((t - from) % (4 * SLICE_MS) !== 0 && t + SLICE_MS < to) continue;
    if (offsetAt(t) === offset) continue;
    let at = t - 3 * SLICE_MS;
    while (at <= start || offsetAt(at) === offset) at += SLICE_MS;
    spans.push({ from: start, to: at, offsetMs: offset });
    start = at;
    offset = offsetAt(at);
  }
  spans.push({ from: start, to, offsetMs: offset });
  return spans;
}

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

/** The index of the last start <= ms, or -1. */
function periodOf(starts: readonly number[], ms: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

interface Tally {
  orders: number;
  cents: number;
}

class PeriodTally {
  readonly byStatus = new Map<OrderStatusRead, Tally>();
  add(status: OrderStatusRead, orders: number, amount: number) {
    const t = this.byStatus.get(status) ?? { orders: 0, cents: 0 };
    t.orders += orders;
    t.cents += amount;
    this.byStatus.set(status, t);
  }
  view(start: number): OrderPeriod {
    const standing = { orders: 0, cents: 0 };
    const cancelled = { orders: 0, cents: 0 };
    const byStatus = [...this.byStatus.entries()]
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

/** Orders by local week and month over the last 12 months, by status; standing and cancelled apart. */
function orderPeriods(store: LocalStore, now: number): Pick<DashboardView, 'months' | 'weeks'> {
  const monthStarts = Array.from({ length: DASHBOARD_MONTHS }, (_, i) =>
    monthStart(now, i - DASHBOARD_MONTHS + 1),
  );
  const firstWeek = weekStart(monthStarts[0]!);
  const weekStarts: number[] = [];
  for (let w = firstWeek, i = 0; w <= now; i += 1, w = weekStart(firstWeek, i)) weekStarts.push(w);
  const monthEnd = monthStart(now, 1);
  const weekEnd = weekStart(now, 1);
  const months = monthStarts.map(() => new PeriodTally());
  const weeks = weekStarts.map(() => new PeriodTally());
  const since = Math.min(firstWeek, monthStarts[0]!);
  // order_slices (migration 16): the orders summed by quarter hour and status as they are
  // written, summed again here by local day, one query per span of one UTC offset.
  const end = Math.max(monthEnd, weekEnd);
  for (const span of offsetSpans(since, end)) {
    const rows = prepareCached(
      store.db,
      `SELECT (slice * ${SLICE_MS} + CAST(? AS INTEGER)) / ${DAY_MS} AS day, status, SUM(orders) AS n,
         SUM(cents) AS cents
       FROM order_slices WHERE slice >= ? AND slice < ? AND orders > 0
       GROUP BY day, status`,
    ).all(span.offsetMs, span.from / SLICE_MS, span.to / SLICE_MS);
    for (const row of rows) {
      const r = parseRow(DayRow, row, 'orders', `day=${String((row as { day: unknown }).day)}`);
      // Noon of that local day: inside it whatever daylight saving does to its midnight.
      const at = r.day * DAY_MS - span.offsetMs + DAY_MS / 2;
      const m = periodOf(monthStarts, at);
      if (m >= 0 && at < monthEnd) months[m]!.add(r.status, r.n, r.cents ?? 0);
      const w = periodOf(weekStarts, at);
      if (w >= 0 && at < weekEnd) weeks[w]!.add(r.status, r.n, r.cents ?? 0);
    }
  }
  return {
    months: months.map((t, i) => t.view(monthStarts[i]!)),
    weeks: weeks.map((t, i) => t.view(weekStarts[i]!)),
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
  // order_lines (migration 16) in its index's order: the sums per product stream, no sort.
  const rows = prepareCached(
    store.db,
    `SELECT product_id, status, MAX(name) AS name, SUM(quantity) AS quantity, SUM(cents) AS cents
     FROM order_lines WHERE created_at >= ?
     GROUP BY product_id, status`,
  ).all(since);
  const products = new Map<number, { name: string | null; quantity: number; cents: number }>();
  for (const row of rows) {
    const r = parseRow(
      ProductRow,
      row,
      'orders',
      `product=${String((row as { product_id: unknown }).product_id)}`,
    );
    if (!isStanding(r.status)) continue;
    const p = products.get(r.product_id) ?? { name: null, quantity: 0, cents: 0 };
    p.name = p.name ?? r.name;
    p.quantity += r.quantity ?? 0;
    p.cents += r.cents ?? 0;
    products.set(r.product_id, p);
  }
  const all = [...products.entries()].map(([productId, p]) => ({ productId, ...p }));
  const view = (p: (typeof all)[number]): ProductFigure => ({
    productId: p.productId,
    name: p.name,
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
