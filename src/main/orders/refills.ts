import { z } from 'zod';
import { DaysSupply } from '@shared/api';
import { LIVE_CHANGE_JOIN } from '../protocols/change-queue';
import {
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  type ProtocolSummary,
} from '../protocols/protocol-model';
import type { OrderStore } from './order-store';
import { parseRow, prepareCached } from '../db/rows';
import { DAY_MS, daysEarly, daysLeft } from './supply';

/**
 * When an order's supply runs out (epoch ms: its createdAt plus its days supply) and the whole
 * days left from `now` (floor; negative when it already has).
 */
export function supplyEnd(
  createdAt: number,
  daysSupply: number,
  now: number,
): { runsOutAt: number; daysLeft: number } {
  const runsOutAt = createdAt + daysSupply * DAY_MS;
  return { runsOutAt, daysLeft: daysLeft(runsOutAt, now) };
}

/** A protocol whose supply (its content's orders, overlapping ones added up) runs out soon. */
export interface RefillDue {
  protocol: ProtocolSummary;
  /** The last order of the supply. */
  lastOrderId: string;
  /** The order's createdAt as the server sent it. */
  lastOrderedAt: string;
  daysSupply: DaysSupply;
  /** Epoch ms: when the supply runs out (supply.ts, currentSupply). */
  runsOutAt: number;
  /** Whole days from now until it runs out (floor); negative when it already has. */
  daysLeft: number;
  /** Days before the refill is due (0: due now): an order made now is that many days early. */
  daysEarly: number;
}

export interface Refills {
  due: RefillDue[];
  /** Protocols with no order of their content (products, quantities, doses) here. */
  neverOrdered: ProtocolSummary[];
}

const DueRow = z.object({
  o_id: z.string(),
  o_created_iso: z.string(),
  o_days: DaysSupply,
  o_runs_out: z.int(),
});

/**
 * Refills due, in two queries whatever the number of protocols: those whose supply runs out
 * within `withinDays` of `now` (or already has), soonest first then by name, and apart those with
 * no order of their content. Read from protocol_columns' refill index (migrations 12 and 14).
 * How the supply and "within N days" count: docs/decisions.md, "Refills due".
 */
export function refillsDue(store: OrderStore, now: number, withinDays: number): Refills {
  const due = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT}, o.id AS o_id, json_extract(o.body, '$.createdAt') AS o_created_iso,
       json_extract(o.body, '$.daysSupply') AS o_days, c.refill_at AS o_runs_out
     FROM protocol_columns c JOIN protocols p ON p.seq = c.seq
       JOIN orders o ON o.id = c.supply_order_id ${LIVE_CHANGE_JOIN}
     WHERE c.refill_at < ? AND p.deleted = 0
     ORDER BY c.refill_at, p.sort_name, p.seq`,
  )
    .all(now + (withinDays + 1) * DAY_MS)
    .map((row) => {
      const key = `local_id=${(row as { local_id: unknown }).local_id}`;
      const r = parseRow(DueRow, row, 'orders', key);
      return {
        protocol: parseRow(ProtocolSummaryRow, row, 'protocols', key),
        lastOrderId: r.o_id,
        lastOrderedAt: r.o_created_iso,
        daysSupply: r.o_days,
        runsOutAt: r.o_runs_out,
        daysLeft: daysLeft(r.o_runs_out, now),
        daysEarly: daysEarly(r.o_runs_out, now),
      };
    });
  const neverOrdered = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT} FROM protocol_columns c JOIN protocols p ON p.seq = c.seq
       ${LIVE_CHANGE_JOIN}
     WHERE c.supply_order_id IS NULL AND p.deleted = 0
     ORDER BY p.sort_name, p.seq`,
  )
    .all()
    .map((row) =>
      parseRow(
        ProtocolSummaryRow,
        row,
        'protocols',
        `local_id=${(row as { local_id: unknown }).local_id}`,
      ),
    );
  return { due, neverOrdered };
}
