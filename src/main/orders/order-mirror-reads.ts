import { z } from 'zod';
import { AppOrder } from '@shared/api';
import type { Db } from '../db/db';
import { jsonText, parseRow, prepareCached } from '../db/rows';

export const OrderSource = z.enum(['created', 'pulled']);
export type OrderSource = z.infer<typeof OrderSource>;

const Row = z.object({
  id: z.string(),
  source: OrderSource,
  next_poll_at: z.int().nullable(),
  last_polled_at: z.int().nullable(),
  body: jsonText(AppOrder),
});

/** The columns of an orders row that parseOrderRow reads. */
export const ORDER_ROW_COLUMNS = 'id, source, next_poll_at, last_polled_at, body';

/** A row of orders (ORDER_ROW_COLUMNS), checked: a mismatch is a CorruptRowError. */
export const parseOrderRow = (r: unknown) =>
  parseRow(Row, r, 'orders', `id=${(r as { id: unknown }).id}`);

/** The mirrored row of an order, or null. */
export function orderRow(db: Db, id: string) {
  const r = prepareCached(db, `SELECT ${ORDER_ROW_COLUMNS} FROM orders WHERE id = ?`).get(id);
  return r ? parseOrderRow(r) : null;
}

/** For these ids, the server updatedAt (epoch ms) of the mirrored copy, where there is one. */
export function updatedAtOf(db: Db, ids: readonly string[]): Map<string, number> {
  if (ids.length === 0) return new Map();
  const rows = prepareCached(
    db,
    'SELECT id, updated_at FROM orders WHERE id IN (SELECT value FROM json_each(?))',
  ).all(JSON.stringify(ids)) as { id: string; updated_at: number }[];
  return new Map(rows.map((r) => [r.id, r.updated_at]));
}

/** Which of these ids the mirror holds as created here (by this desk's own creates). */
export function createdHere(db: Db, ids: readonly string[]): string[] {
  if (ids.length === 0) return [];
  return (
    prepareCached(
      db,
      `SELECT id FROM orders WHERE source = 'created' AND id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as { id: string }[]
  ).map((r) => r.id);
}

/**
 * The orders of patient `sourceId` made at or after `since` (server epoch ms) that are not
 * cancelled, newest first: what a new order of theirs may repeat.
 */
export function ofPatientSince(db: Db, sourceId: string, since: number): AppOrder[] {
  return prepareCached(
    db,
    `SELECT ${ORDER_ROW_COLUMNS} FROM orders
     WHERE customer_source_id = ? AND created_at >= ? AND status <> 'CANCELLED'
     ORDER BY created_at DESC, id DESC`,
  )
    .all(sourceId, since)
    .map((row) => parseOrderRow(row).body);
}
