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

const DAY_MS = 86_400_000;

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
  return { runsOutAt, daysLeft: Math.floor((runsOutAt - now) / DAY_MS) };
}

/** A protocol whose patient's last known order runs out by the horizon asked for. */
export interface RefillDue {
  protocol: ProtocolSummary;
  lastOrderId: string;
  /** The order's createdAt as the server sent it. */
  lastOrderedAt: string;
  daysSupply: DaysSupply;
  /** Epoch ms: the order's createdAt plus its days supply. */
  runsOutAt: number;
  /** Whole days from now until it runs out (floor); negative when it already has. */
  daysLeft: number;
}

export interface Refills {
  due: RefillDue[];
  /** Protocols whose patient has no order this app knows of. */
  neverOrdered: ProtocolSummary[];
}

/**
 * A patient's orders are the mirrored orders with the protocol's customer sourceId, whatever
 * their status but CANCELLED (a NEW or shipped order both supply the patient); the last is the
 * one created last. SQLite's MAX() takes its other columns from the row of the maximum.
 */
const LAST_ORDERS = `SELECT customer_source_id AS sid, id, MAX(created_at) AS created_at,
    json_extract(body, '$.createdAt') AS created_iso, json_extract(body, '$.daysSupply') AS days
  FROM orders WHERE status <> 'CANCELLED' GROUP BY customer_source_id`;

const DueRow = z.object({
  o_id: z.string(),
  o_created_iso: z.string(),
  o_days: DaysSupply,
  o_runs_out: z.int(),
});

/**
 * Refills due (two queries, whatever the number of protocols): the non-deleted protocols whose
 * patient's last order runs out within `withinDays` days of `now` (or already has), soonest
 * first, then by name; and apart, by name, those whose patient has no order here. Within N days
 * counts whole days, as the days left are shown: N or fewer days left (an order of a 30-day
 * supply made a moment ago, 29 days and some hours left, is due within 30 days however the
 * server's time is estimated).
 */
export function refillsDue(store: LocalStore, now: number, withinDays: number): Refills {
  const due = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT}, o.id AS o_id, o.created_iso AS o_created_iso, o.days AS o_days,
       o.created_at + o.days * ${DAY_MS} AS o_runs_out
     FROM protocols p JOIN (${LAST_ORDERS}) o ON o.sid = p.source_id ${LIVE_CHANGE_JOIN}
     WHERE p.deleted = 0 AND o.created_at + o.days * ${DAY_MS} < ?
     ORDER BY o_runs_out, p.sort_name, p.seq`,
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
        daysLeft: supplyEnd(r.o_runs_out, 0, now).daysLeft,
      };
    });
  const neverOrdered = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT} FROM protocols p ${LIVE_CHANGE_JOIN}
     WHERE p.deleted = 0 AND NOT EXISTS (SELECT 1 FROM orders o
       WHERE o.customer_source_id = p.source_id AND o.status <> 'CANCELLED')
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
