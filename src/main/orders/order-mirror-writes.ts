import { AppOrder } from '@shared/api';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { epochMs, prepareCached, runTransaction } from '../db/rows';
import { isPollFinal, mergeOrder } from './order-merge';
import { orderRow, type OrderSource } from './order-mirror-reads';
import { orderSearchText } from './order-search';
import { recordStatus } from './order-timeline';

export interface OrderUpsert {
  order: AppOrder;
  previous: AppOrder | null;
  /** The stored order differs from before (any field). */
  changed: boolean;
  statusChanged: boolean;
}

/** The `order-status` event of an upsert whose status changed. */
export const orderStatusEvent = (change: OrderUpsert) => ({
  orderId: change.order.id,
  previous: change.previous?.status ?? null,
  status: change.order.status,
  order: change.order,
});

const INSERT_ORDER = `INSERT INTO orders (id, status, status_precision, customer_source_id, customer_name,
    created_at, updated_at, source, next_poll_at, local_updated_at, search_text, body)
  VALUES (@id, @status, @precision, @source_id, @name, @created_at, @updated_at, @source, @next_poll_at, @now,
    @search_text, @body)`;

const UPSERT_ORDER = `${INSERT_ORDER} ON CONFLICT (id) DO UPDATE SET status = excluded.status, status_precision = excluded.status_precision,
     customer_source_id = excluded.customer_source_id, customer_name = excluded.customer_name,
     created_at = excluded.created_at, updated_at = excluded.updated_at, source = excluded.source,
     next_poll_at = excluded.next_poll_at,
     local_updated_at = CASE WHEN @changed THEN excluded.local_updated_at ELSE local_updated_at END,
     search_text = excluded.search_text, body = excluded.body`;

/** The parameters of INSERT_ORDER for `order`. */
const orderColumns = (
  order: AppOrder,
  at: { source: OrderSource; nextPollAt: number | null; now: number },
) => ({
  id: order.id,
  status: order.status,
  precision: order.statusPrecision,
  source_id: order.customer.sourceId,
  name: `${order.customer.firstName} ${order.customer.lastName}`,
  created_at: epochMs(order.createdAt),
  updated_at: epochMs(order.updatedAt),
  source: at.source,
  next_poll_at: at.nextPollAt,
  now: at.now,
  search_text: orderSearchText(order),
  body: JSON.stringify(order),
});

/**
 * Stores an order read from the server, merged with the stored one by mergeOrder's status
 * precedence. The poll schedule: a final status clears next_poll_at; `nextPollAt` when given
 * sets it; a new active order is due at once; otherwise it is kept. An order once 'created' here
 * stays 'created'.
 */
export function upsertOrder(
  db: Db,
  clock: Clock,
  order: AppOrder,
  options: { source: OrderSource; nextPollAt?: number | null },
): OrderUpsert {
  // A read, then one write: a transaction makes them atomic. Inside a caller's transaction no
  // savepoint is needed: a write statement that fails leaves nothing behind by itself.
  const upsert = (): OrderUpsert => {
    const row = orderRow(db, order.id);
    const previous = row?.body ?? null;
    const merged = mergeOrder(previous, AppOrder.parse(order));
    const changed = previous === null || JSON.stringify(previous) !== JSON.stringify(merged);
    const now = clock.now();
    const nextPollAt = isPollFinal(merged.status)
      ? null
      : options.nextPollAt !== undefined
        ? options.nextPollAt
        : row
          ? row.next_poll_at
          : now;
    const source = row?.source === 'created' ? 'created' : options.source;
    if (changed || nextPollAt !== row?.next_poll_at || source !== row?.source) {
      prepareCached(db, UPSERT_ORDER).run({
        ...orderColumns(merged, { source, nextPollAt, now }),
        changed: changed ? 1 : 0,
      });
    }
    if (previous === null || previous.status !== merged.status)
      recordStatus(db, merged.id, merged.status, previous?.status ?? null, now);
    return {
      order: merged,
      previous,
      changed,
      statusChanged: previous !== null && previous.status !== merged.status,
    };
  };
  return db.inTransaction ? upsert() : runTransaction(db, upsert);
}

/**
 * An order this app has just created, as the create answered it (parsed by the API client):
 * stored as upsertOrder stores an order new to the mirror (source 'created', due for polling at
 * once unless final), without reading or re-parsing anything; when the mirror holds it already
 * (a pull was faster), upsertOrder merges it.
 */
export function insertCreatedOrder(db: Db, clock: Clock, order: AppOrder): void {
  if (!db.inTransaction) {
    runTransaction(db, () => insertCreatedOrder(db, clock, order));
    return;
  }
  const now = clock.now();
  const nextPollAt = isPollFinal(order.status) ? null : now;
  const inserted = prepareCached(db, `${INSERT_ORDER} ON CONFLICT (id) DO NOTHING`).run(
    orderColumns(order, { source: 'created', nextPollAt, now }),
  ).changes;
  if (inserted === 0) upsertOrder(db, clock, order, { source: 'created' });
  else recordStatus(db, order.id, order.status, null, now);
}

/** upsertOrder for a page of orders, in one transaction. */
export function upsertOrders(
  db: Db,
  clock: Clock,
  orders: readonly AppOrder[],
  source: OrderSource,
): OrderUpsert[] {
  return runTransaction(db, () => orders.map((o) => upsertOrder(db, clock, o, { source })));
}
