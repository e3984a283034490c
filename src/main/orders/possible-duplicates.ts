import { z } from 'zod';
import type { Db } from '../db/db';
import { parseRow, prepareCached } from '../db/rows';

/** What becomes of a possible duplicate (migration 15): null, a person decides. */
export const AutoCancel = z.enum(['pending', 'done', 'refused']).nullable();
export type AutoCancel = z.infer<typeof AutoCancel>;

const PossibleDuplicateRow = z.object({
  orderId: z.string(),
  of: z.string(),
  seq: z.int(),
  /** As mirrored; null when the order is not in the mirror (yet). */
  status: z.string().nullable(),
  autoCancel: AutoCancel,
});
export type PossibleDuplicate = z.infer<typeof PossibleDuplicateRow>;

const PendingAutoCancelRow = z.object({ orderId: z.string(), of: z.string(), batchId: z.string() });

/**
 * Records that `orderId` may repeat `of`, the order of item `seq` of a batch (once).
 * `autoCancel`: this desk made it and cancels it by itself (migration 15).
 */
export function markPossibleDuplicate(
  db: Db,
  foundAt: number,
  d: { orderId: string; of: string; batchId: string; seq: number; autoCancel?: boolean },
): boolean {
  return (
    prepareCached(
      db,
      `INSERT INTO possible_duplicates (order_id, of_order, batch_id, batch_seq, found_at, auto_cancel)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
    ).run(d.orderId, d.of, d.batchId, d.seq, foundAt, d.autoCancel ? 'pending' : null).changes === 1
  );
}

/** The possible duplicates this desk is to cancel by itself, oldest found first. */
export function pendingAutoCancels(db: Db): z.infer<typeof PendingAutoCancelRow>[] {
  return prepareCached(
    db,
    `SELECT order_id AS orderId, of_order AS of, batch_id AS batchId FROM possible_duplicates
     WHERE auto_cancel = 'pending' ORDER BY found_at, order_id`,
  )
    .all()
    .map((row) => parseRow(PendingAutoCancelRow, row, 'possible_duplicates', 'auto_cancel'));
}

/** What became of a possible duplicate this desk was to cancel. */
export function settleAutoCancel(db: Db, orderId: string, outcome: AutoCancel): void {
  prepareCached(db, 'UPDATE possible_duplicates SET auto_cancel = ? WHERE order_id = ?').run(
    outcome,
    orderId,
  );
}

/** The possible duplicates found for a batch's items, with each order's status as mirrored. */
export function possibleDuplicates(db: Db, batchId: string): PossibleDuplicate[] {
  return prepareCached(
    db,
    `SELECT d.order_id AS orderId, d.of_order AS of, d.batch_seq AS seq, o.status AS status,
       d.auto_cancel AS autoCancel
     FROM possible_duplicates d LEFT JOIN orders o ON o.id = d.order_id
     WHERE d.batch_id = ? ORDER BY d.batch_seq, d.order_id`,
  )
    .all(batchId)
    .map((row) => parseRow(PossibleDuplicateRow, row, 'possible_duplicates', batchId));
}

/**
 * A batch's possible duplicates a person is to look at (not cancelled, and not being cancelled
 * by this desk), and those this desk cancelled by itself.
 */
export function possibleDuplicateCount(
  db: Db,
  batchId: string,
): { open: number; cancelled: number } {
  const row = prepareCached(
    db,
    `SELECT COUNT(*) FILTER (WHERE (d.auto_cancel IS NULL OR d.auto_cancel = 'refused')
         AND o.status IS NOT 'CANCELLED') AS open,
       COUNT(*) FILTER (WHERE d.auto_cancel = 'done') AS cancelled
     FROM possible_duplicates d LEFT JOIN orders o ON o.id = d.order_id
     WHERE d.batch_id = ?`,
  ).get(batchId) as { open: number; cancelled: number };
  return { open: row.open, cancelled: row.cancelled };
}

/** For these orders, the order each may repeat (only those found to). */
export function duplicateOf(db: Db, ids: readonly string[]): Map<string, string> {
  if (ids.length === 0) return new Map();
  const rows = prepareCached(
    db,
    `SELECT order_id, of_order FROM possible_duplicates
     WHERE order_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify(ids)) as { order_id: string; of_order: string }[];
  return new Map(rows.map((r) => [r.order_id, r.of_order]));
}
