import { z } from 'zod';
import { jsonText } from '../db/rows';

/** The stored key of a patient never ordered for (see migration 12). */
export const NO_ORDER = -1;
/** The stored key of a next refill that is not known (the largest date). */
const NO_REFILL = 8_640_000_000_000_000;

/**
 * What the list reads of protocol_columns c (migration 12, kept by triggers) for the rows of a
 * page: one lookup by seq each, whatever the number of protocols; and, for a patient with no
 * order but cancelled ones, the latest of those (an index lookup of orders_source_id), so that
 * the list never says "Never ordered" where the Patients screen names an order.
 */
export const COLUMNS_SELECT = `c.products AS c_products, c.days_supply AS c_days,
  c.ship_label AS c_ship, c.last_order_id AS c_lo_id, c.last_order_status AS c_lo_status,
  c.last_order_at AS c_lo_at, c.refill_at AS c_refill_at,
  CASE WHEN c.last_order_at = ${NO_ORDER} THEN (SELECT MAX(o.created_at) FROM orders o
    WHERE o.customer_source_id = p.source_id AND o.status = 'CANCELLED') END AS c_cancelled_at`;

/** What the list's columns show of a protocol as stored; its days left are counted at read. */
export interface StoredColumns {
  products: string[];
  daysSupply: number | null;
  shipping: string | null;
  lastOrder: { id: string; status: string; createdAt: number; runsOutAt: number | null } | null;
  /** Without a last order: when the patient's latest cancelled order was made, if any. */
  cancelledAt: number | null;
}

/** The row COLUMNS_SELECT reads, as the list shows it; a protocol without one has empty columns. */
export const ProtocolColumnsRow = z
  .object({
    c_products: jsonText(z.array(z.string())).nullable(),
    c_days: z.int().nullable(),
    c_ship: z.string().nullable(),
    c_lo_id: z.string().nullable(),
    c_lo_status: z.string().nullable(),
    c_lo_at: z.int().nullable(),
    c_refill_at: z.int().nullable(),
    c_cancelled_at: z.int().nullable(),
  })
  .transform((r): StoredColumns => ({
    products: r.c_products ?? [],
    daysSupply: r.c_days === null || r.c_days < 0 ? null : r.c_days,
    shipping: r.c_ship || null,
    lastOrder:
      r.c_lo_id !== null && r.c_lo_status !== null && r.c_lo_at !== null && r.c_lo_at !== NO_ORDER
        ? {
            id: r.c_lo_id,
            status: r.c_lo_status,
            createdAt: r.c_lo_at,
            runsOutAt: r.c_refill_at === null || r.c_refill_at === NO_REFILL ? null : r.c_refill_at,
          }
        : null,
    cancelledAt: r.c_cancelled_at,
  }));
