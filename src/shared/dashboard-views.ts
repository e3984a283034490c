import { z } from 'zod';
import { Money, OrderStatusRead, Timestamp } from './api';
import { OrderTally } from './order-outcome';

/**
 * The dashboard's figures (dashboard.summary), read from the local mirror so they work offline.
 * Days, weeks and months are the computer's local calendar (the clinic's time zone), each named
 * by its first day as YYYY-MM-DD; orders count by the server's createdAt (docs/decisions.md,
 * "Dashboard").
 */

/** A local calendar day, YYYY-MM-DD. */
export const LocalDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');
export type LocalDay = z.infer<typeof LocalDay>;

/** The orders of one status in a period and what they cost. */
export const StatusTally = z.object({
  status: OrderStatusRead,
  orders: z.int().min(0),
  amount: Money,
});
export type StatusTally = z.infer<typeof StatusTally>;

/** One week or month: its orders by status, and standing and cancelled (order-outcome.ts's rule). */
export const OrderPeriod = z.object({
  /** The period's first day. */
  start: LocalDay,
  byStatus: z.array(StatusTally),
  standing: OrderTally,
  cancelled: OrderTally,
});
export type OrderPeriod = z.infer<typeof OrderPeriod>;

/** A product's standing orders over the months shown: the quantity ordered and what it cost. */
export const ProductFigure = z.object({
  productId: z.int(),
  /** The name the orders' line items carry (1.0.1 servers send none). */
  name: z.string().nullable(),
  quantity: z.int().min(0),
  amount: Money,
});
export type ProductFigure = z.infer<typeof ProductFigure>;

/** The protocols whose supply runs out on one day (Refills due's rule). */
export const RefillDay = z.object({ day: LocalDay, refills: z.int().min(1) });
export type RefillDay = z.infer<typeof RefillDay>;

/** The batches made on one day and what became of their orders. */
export const BatchDay = z.object({
  day: LocalDay,
  batches: z.int().min(0),
  created: z.int().min(0),
  refused: z.int().min(0),
  possibleDuplicates: z.int().min(0),
});
export type BatchDay = z.infer<typeof BatchDay>;

export const DASHBOARD_MONTHS = 12;
export const DASHBOARD_REFILL_DAYS = 30;
export const DASHBOARD_BATCH_DAYS = 30;
export const DASHBOARD_TOP_PRODUCTS = 10;

export const DashboardView = z.object({
  /** The time the figures are counted from (the server's time, as the orders' dates). */
  asOf: Timestamp,
  /** The last 12 months, oldest first, the current one last (empty ones included). */
  months: z.array(OrderPeriod),
  /** The weeks (Monday first) of those months, oldest first (empty ones included). */
  weeks: z.array(OrderPeriod),
  /** The top products over those months, standing orders only. */
  topByQuantity: z.array(ProductFigure).max(DASHBOARD_TOP_PRODUCTS),
  topBySpend: z.array(ProductFigure).max(DASHBOARD_TOP_PRODUCTS),
  refills: z.object({
    /** Supplies that already ran out (Refills due lists them first). */
    overdue: z.int().min(0),
    /** The days of the next 30 on which supplies run out, in order (days with none left out). */
    days: z.array(RefillDay),
  }),
  /** The batches of the last 30 days, by the day they were made (days with none left out). */
  batches: z.object({
    batches: z.int().min(0),
    created: z.int().min(0),
    refused: z.int().min(0),
    possibleDuplicates: z.int().min(0),
    days: z.array(BatchDay),
  }),
});
export type DashboardView = z.infer<typeof DashboardView>;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local calendar day of an instant (epoch ms), as YYYY-MM-DD. */
export function localDay(ms: number): LocalDay {
  const d = new Date(ms);
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
