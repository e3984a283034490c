import type { AppOrder } from '@shared/api';
import type { Db } from '../db/db';
import { prepareCached } from '../db/rows';
import { POLL_FINAL_STATUSES } from './order-merge';
import { ORDER_ROW_COLUMNS, parseOrderRow, type OrderSource } from './order-mirror-reads';

/** An active order whose next poll is due (the poller's stored schedule, orders.next_poll_at). */
export interface DueOrder {
  order: AppOrder;
  source: OrderSource;
  lastPolledAt: number | null;
  nextPollAt: number;
}

const FINAL_LIST = POLL_FINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * Active orders whose next poll is due at `now`, most overdue first. `fast` shortens the wait
 * since the last poll `divisor` times for orders waiting at most `upToMs` (the fast cadence,
 * poll-plan.ts): the stored schedule stays the slow one, so a change of cadence rewrites no row.
 * `only`: those orders alone, with those asked for now (next poll set before the last) and
 * those never read yet created since `youngSince` (server time, epoch ms).
 */
export function dueForPolling(
  db: Db,
  now: number,
  limit: number,
  fast: { divisor: number; upToMs: number; only: boolean; youngSince: number } | null = null,
): DueOrder[] {
  const rows =
    fast === null
      ? prepareCached(
          db,
          `SELECT ${ORDER_ROW_COLUMNS} FROM orders
           WHERE next_poll_at IS NOT NULL AND next_poll_at <= ? ORDER BY next_poll_at, id LIMIT ?`,
        ).all(now, limit)
      : prepareCached(
          db,
          `SELECT ${ORDER_ROW_COLUMNS} FROM (
             SELECT ${ORDER_ROW_COLUMNS},
               CASE WHEN last_polled_at IS NULL OR next_poll_at < last_polled_at
                   OR next_poll_at - last_polled_at > @upToMs THEN next_poll_at
                 ELSE last_polled_at + (next_poll_at - last_polled_at) / @divisor END AS due_at
             FROM orders WHERE next_poll_at IS NOT NULL AND (@only = 0
               OR (last_polled_at IS NOT NULL AND next_poll_at - last_polled_at <= @upToMs)
               OR (last_polled_at IS NULL AND created_at >= @youngSince)))
           WHERE due_at <= @now ORDER BY due_at, id LIMIT @limit`,
        ).all({ now, limit, ...fast, only: fast.only ? 1 : 0 });
  return rows.map((r) => {
    const row = parseOrderRow(r);
    return {
      order: row.body,
      source: row.source,
      lastPolledAt: row.last_polled_at,
      nextPollAt: row.next_poll_at ?? now,
    };
  });
}

/** Records a poll: when it happened (optional) and when the next one is due (null: never). */
export function schedulePoll(
  db: Db,
  id: string,
  schedule: { polledAt?: number; nextPollAt: number | null },
): boolean {
  return (
    prepareCached(
      db,
      `UPDATE orders SET next_poll_at = CASE WHEN status IN (${FINAL_LIST}) THEN NULL ELSE ? END,
         last_polled_at = COALESCE(?, last_polled_at) WHERE id = ?`,
    ).run(schedule.nextPollAt, schedule.polledAt ?? null, id).changes === 1
  );
}

/**
 * At start: a poll scheduled more than `maxWaitMs` from now (an earlier run's steady clock,
 * begun before the PC's clock was set back) is due now. Returns how many moved.
 */
export function clampPollSchedule(db: Db, now: number, maxWaitMs: number): number {
  return prepareCached(
    db,
    'UPDATE orders SET next_poll_at = @now WHERE next_poll_at > @now + @max',
  ).run({ now, max: maxWaitMs }).changes;
}
