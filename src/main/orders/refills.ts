import { z } from 'zod';
import { DaysSupply } from '@shared/api';
import { LIVE_CHANGE_JOIN } from '../jobs/protocol/change-queue';
import {
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  type ProtocolSummary,
} from '../protocols/protocol-model';
import type { LocalStore } from '../stores';
import { parseRow, prepareCached } from '../store/rows';
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
 * Refills due (two queries, whatever the number of protocols): the non-deleted protocols whose
 * supply runs out within `withinDays` days of `now` (or already has), soonest first, then by
 * name; and apart, by name, those with no order of their content here. The supply is the
 * patient's orders of the protocol's content, whatever their status but CANCELLED (a NEW or a
 * shipped order both supply the patient), overlapping ones added up (supply.ts): read from
 * protocol_columns (migrations 12 and 14, kept by triggers), whose refill index answers the
 * horizon at once. Within N days
 * counts whole days, as the days left are shown: N or fewer days left (an order of a 30-day
 * supply made a moment ago, 29 days and some hours left, is due within 30 days however the
 * server's time is estimated).
 */
export function refillsDue(store: LocalStore, now: number, withinDays: number): Refills {
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
