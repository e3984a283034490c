import { z } from 'zod';
import { OrderStatusRead } from '@shared/api';
import type { Db } from '../db/db';
import { parseRow, prepareCached } from '../db/rows';

/** A status the app saw an order take, and when (epoch ms, local clock). */
export interface OrderStatusChange {
  status: OrderStatusRead;
  previous: OrderStatusRead | null;
  seenAt: number;
}

const StatusChangeRow = z
  .object({ status: OrderStatusRead, previous: OrderStatusRead.nullable(), seen_at: z.int() })
  .transform((r) => ({ status: r.status, previous: r.previous, seenAt: r.seen_at }));

/** Notes a status the app saw an order take (its timeline). */
export function recordStatus(
  db: Db,
  id: string,
  status: OrderStatusRead,
  previous: OrderStatusRead | null,
  seenAt: number,
): void {
  prepareCached(
    db,
    `INSERT INTO order_status_changes (order_id, status, previous, seen_at) VALUES (?, ?, ?, ?)`,
  ).run(id, status, previous, seenAt);
}

/** The statuses the app saw the order take, oldest first ([] for an unknown order). */
export function orderTimeline(db: Db, id: string): OrderStatusChange[] {
  return prepareCached(
    db,
    'SELECT status, previous, seen_at FROM order_status_changes WHERE order_id = ? ORDER BY id',
  )
    .all(id)
    .map((r) => parseRow(StatusChangeRow, r, 'order_status_changes', `order_id=${id}`));
}
