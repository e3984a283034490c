import { z } from 'zod';
import { AppOrder, ORDER_STATUSES, OrderStatusRead } from '@shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { isPollFinal, mergeOrder, POLL_FINAL_STATUSES } from './order-merge';
import { orderSearchLikes, orderSearchText } from './order-search';
import { epochMs, jsonText, parseRow, prepareCached, runTransaction } from '../store/rows';
import { UnchangedCache } from '../store/unchanged-cache';

export const OrderSource = z.enum(['created', 'pulled']);
export type OrderSource = z.infer<typeof OrderSource>;

const Row = z.object({
  id: z.string(),
  source: OrderSource,
  next_poll_at: z.int().nullable(),
  last_polled_at: z.int().nullable(),
  body: jsonText(AppOrder),
});

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

export interface OrderQuery {
  statuses?: readonly OrderStatusRead[];
  /** Orders of this customer (exact sourceId). */
  sourceId?: string;
  /** Only orders created at or after this server time (ISO). */
  createdFrom?: string;
  createdTo?: string;
  /** Words of the patient's name, sourceId or the order id; every word must match. */
  search?: string;
  limit?: number;
  offset?: number;
}

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

/** A status the app saw an order take, and when (epoch ms, local clock). */
export interface OrderStatusChange {
  status: OrderStatusRead;
  previous: OrderStatusRead | null;
  seenAt: number;
}

const StatusChangeRow = z
  .object({ status: OrderStatusRead, previous: OrderStatusRead.nullable(), seen_at: z.int() })
  .transform((r) => ({ status: r.status, previous: r.previous, seenAt: r.seen_at }));

export interface DueOrder {
  order: AppOrder;
  source: OrderSource;
  lastPolledAt: number | null;
  nextPollAt: number;
}

const INSERT_ORDER = `INSERT INTO orders (id, status, status_precision, customer_source_id, customer_name,
    created_at, updated_at, source, next_poll_at, local_updated_at, search_text, body)
  VALUES (@id, @status, @precision, @source_id, @name, @created_at, @updated_at, @source, @next_poll_at, @now,
    @search_text, @body)`;

/** A status the app saw an order take (its timeline). */
const INSERT_STATUS_CHANGE = `INSERT INTO order_status_changes (order_id, status, previous, seen_at)
  VALUES (?, ?, ?, ?)`;

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

const FINAL_LIST = POLL_FINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/** Mirror of orders: created here (bulk submission) or pulled, with the poller's schedule. */
export class OrdersRepo {
  /** Totals of list queries and counts per status, kept while the database is unchanged. */
  private readonly totals: UnchangedCache<number>;
  private readonly statusCounts: UnchangedCache<Record<OrderStatusRead, number>>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.totals = new UnchangedCache(db);
    this.statusCounts = new UnchangedCache(db);
  }

  /**
   * Stores an order read from the server, merged with the stored one by mergeOrder's status
   * precedence. The poll schedule: a final status clears next_poll_at; `nextPollAt` when given
   * sets it; a new active order is due at once; otherwise it is kept. An order once 'created' here
   * stays 'created'.
   */
  upsert(
    order: AppOrder,
    options: { source: OrderSource; nextPollAt?: number | null },
  ): OrderUpsert {
    // A read, then one write: a transaction makes them atomic. Inside a caller's transaction no
    // savepoint is needed: a write statement that fails leaves nothing behind by itself.
    const upsert = (): OrderUpsert => {
      const row = this.row(order.id);
      const previous = row?.body ?? null;
      const merged = mergeOrder(previous, AppOrder.parse(order));
      const changed = previous === null || JSON.stringify(previous) !== JSON.stringify(merged);
      const now = this.clock.now();
      const nextPollAt = isPollFinal(merged.status)
        ? null
        : options.nextPollAt !== undefined
          ? options.nextPollAt
          : row
            ? row.next_poll_at
            : now;
      const source = row?.source === 'created' ? 'created' : options.source;
      if (changed || nextPollAt !== row?.next_poll_at || source !== row?.source) {
        prepareCached(
          this.db,
          `${INSERT_ORDER} ON CONFLICT (id) DO UPDATE SET status = excluded.status, status_precision = excluded.status_precision,
             customer_source_id = excluded.customer_source_id, customer_name = excluded.customer_name,
             created_at = excluded.created_at, updated_at = excluded.updated_at, source = excluded.source,
             next_poll_at = excluded.next_poll_at,
             local_updated_at = CASE WHEN @changed THEN excluded.local_updated_at ELSE local_updated_at END,
             search_text = excluded.search_text, body = excluded.body`,
        ).run({ ...orderColumns(merged, { source, nextPollAt, now }), changed: changed ? 1 : 0 });
      }
      if (previous === null || previous.status !== merged.status)
        this.recordStatus(merged.id, merged.status, previous?.status ?? null, now);
      return {
        order: merged,
        previous,
        changed,
        statusChanged: previous !== null && previous.status !== merged.status,
      };
    };
    return this.db.inTransaction ? upsert() : runTransaction(this.db, upsert);
  }

  /**
   * An order this app has just created, as the create answered it (parsed by the API client):
   * stored as upsert stores an order new to the mirror (source 'created', due for polling at once
   * unless final), without reading or re-parsing anything; when the mirror holds it already (a
   * pull was faster), upsert merges it.
   */
  insertCreated(order: AppOrder): void {
    if (!this.db.inTransaction) {
      runTransaction(this.db, () => this.insertCreated(order));
      return;
    }
    const now = this.clock.now();
    const nextPollAt = isPollFinal(order.status) ? null : now;
    const inserted = prepareCached(this.db, `${INSERT_ORDER} ON CONFLICT (id) DO NOTHING`).run(
      orderColumns(order, { source: 'created', nextPollAt, now }),
    ).changes;
    if (inserted === 0) this.upsert(order, { source: 'created' });
    else this.recordStatus(order.id, order.status, null, now);
  }

  /** upsert for a page of orders, in one transaction. */
  upsertMany(orders: readonly AppOrder[], source: OrderSource): OrderUpsert[] {
    return runTransaction(this.db, () => orders.map((o) => this.upsert(o, { source })));
  }

  get(id: string): AppOrder | null {
    return this.row(id)?.body ?? null;
  }

  /**
   * Orders newest first (server createdAt), filtered and searched. The page's rows are picked on
   * a narrow index (OFFSET walks index entries, not the rows and their wide body), then only
   * those rows are read. A page past the middle is picked from the oldest end (with the total,
   * kept while nothing changes), so the last page costs what the first does.
   */
  list(query: OrderQuery = {}): AppOrder[] {
    const { where, params } = orderFilter(query);
    const offset = Math.max(0, query.offset ?? 0);
    const limit = query.limit ?? -1;
    let order = 'DESC';
    let skip = offset;
    let take = limit;
    if (offset > 0 && limit >= 0) {
      const total = this.count(query);
      if (offset >= total) return [];
      if (offset * 2 > total) {
        order = 'ASC';
        take = Math.min(limit, total - offset);
        skip = total - offset - take;
      }
    }
    const picked = prepareCached(
      this.db,
      `SELECT rowid AS r FROM ${queueSource(query)} ${whereClause(where)}
       ORDER BY created_at ${order}, id ${order} LIMIT ? OFFSET ?`,
    )
      .all(...params, take, skip)
      .map((row) => (row as { r: number }).r);
    const page = order === 'ASC' ? picked.reverse() : picked;
    if (page.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT rowid AS r, id, source, next_poll_at, last_polled_at, body FROM orders
       WHERE rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(page)) as { r: number }[];
    const byRowid = new Map(rows.map((r) => [r.r, r]));
    return page.flatMap((r) => {
      const row = byRowid.get(r);
      return row ? [this.parse(row).body] : [];
    });
  }

  /**
   * Every order matching the filters and search (paging aside), in the list's order (newest
   * first), one at a time: the rows are walked on the same index and WHERE terms as list(), and
   * each body is parsed only when it is reached, so an export of 100,000 orders never holds them
   * all as objects. The statement keeps the connection busy until the walk ends: consume it
   * without running other queries meanwhile.
   */
  *matching(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): Generator<AppOrder> {
    const { where, params } = orderFilter(query);
    const rows = prepareCached(
      this.db,
      `SELECT id, source, next_poll_at, last_polled_at, body FROM ${queueSource(query)}
       ${whereClause(where)} ORDER BY created_at DESC, id DESC`,
    ).iterate(...params);
    for (const row of rows) yield this.parse(row).body;
  }

  /**
   * How many orders match the query's filters and search (no paging). Kept while the database
   * is unchanged, so the next pages of one list do not count again.
   */
  count(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): number {
    // The cache key is the WHERE terms and their values: exactly what the count depends on.
    const { where, params } = orderFilter(query);
    return this.totals.get(JSON.stringify([where, params]), () => {
      const sql = `SELECT COUNT(*) AS n FROM ${countSource(query)} ${whereClause(where)}`;
      return (prepareCached(this.db, sql).get(...params) as { n: number }).n;
    });
  }

  /**
   * Orders matching the filters and search (statuses aside), per status: every known status,
   * zeros included, and each status the app does not know that an order has (as it came). Kept
   * while the database is unchanged.
   */
  countByStatus(
    query: Omit<OrderQuery, 'limit' | 'offset' | 'statuses'> = {},
  ): Record<OrderStatusRead, number> {
    const { where, params } = orderFilter(query);
    const counts = this.statusCounts.get(JSON.stringify([where, params]), () => {
      const rows = prepareCached(
        this.db,
        `SELECT status, COUNT(*) AS n FROM ${countSource(query)} ${whereClause(where)} GROUP BY status`,
      ).all(...params) as { status: string; n: number }[];
      const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<
        OrderStatusRead,
        number
      >;
      for (const r of rows) {
        const status = OrderStatusRead.safeParse(r.status);
        if (status.success) byStatus[status.data] = (byStatus[status.data] ?? 0) + r.n;
      }
      return byStatus;
    });
    return { ...counts };
  }

  /** The statuses the app saw the order take, oldest first ([] for an unknown order). */
  timeline(id: string): OrderStatusChange[] {
    return prepareCached(
      this.db,
      'SELECT status, previous, seen_at FROM order_status_changes WHERE order_id = ? ORDER BY id',
    )
      .all(id)
      .map((r) => parseRow(StatusChangeRow, r, 'order_status_changes', `order_id=${id}`));
  }

  /** Active orders whose next poll is due at `now`, most overdue first. */
  dueForPolling(now: number, limit: number): DueOrder[] {
    return prepareCached(
      this.db,
      `SELECT id, source, next_poll_at, last_polled_at, body FROM orders
       WHERE next_poll_at IS NOT NULL AND next_poll_at <= ? ORDER BY next_poll_at, id LIMIT ?`,
    )
      .all(now, limit)
      .map((r) => {
        const row = this.parse(r);
        return {
          order: row.body,
          source: row.source,
          lastPolledAt: row.last_polled_at,
          nextPollAt: row.next_poll_at ?? now,
        };
      });
  }

  /** Records a poll: when it happened (optional) and when the next one is due (null: never). */
  /** For these ids, the server updatedAt (epoch ms) of the mirrored copy, where there is one. */
  updatedAtOf(ids: readonly string[]): Map<string, number> {
    if (ids.length === 0) return new Map();
    const rows = prepareCached(
      this.db,
      'SELECT id, updated_at FROM orders WHERE id IN (SELECT value FROM json_each(?))',
    ).all(JSON.stringify(ids)) as { id: string; updated_at: number }[];
    return new Map(rows.map((r) => [r.id, r.updated_at]));
  }

  /** Which of these ids the mirror holds as created here (by this desk's own creates). */
  createdHere(ids: readonly string[]): string[] {
    if (ids.length === 0) return [];
    return (
      prepareCached(
        this.db,
        `SELECT id FROM orders WHERE source = 'created' AND id IN (SELECT value FROM json_each(?))`,
      ).all(JSON.stringify(ids)) as { id: string }[]
    ).map((r) => r.id);
  }

  /**
   * The orders of patient `sourceId` made at or after `since` (server epoch ms) that are not
   * cancelled, newest first: what a new order of theirs may repeat.
   */
  ofPatientSince(sourceId: string, since: number): AppOrder[] {
    return prepareCached(
      this.db,
      `SELECT id, source, next_poll_at, last_polled_at, body FROM orders
       WHERE customer_source_id = ? AND created_at >= ? AND status <> 'CANCELLED'
       ORDER BY created_at DESC, id DESC`,
    )
      .all(sourceId, since)
      .map((row) => this.parse(row).body);
  }

  /**
   * Records that `orderId` may repeat `of`, the order of item `seq` of a batch (once).
   * `autoCancel`: this desk made it and cancels it by itself (migration 15).
   */
  markPossibleDuplicate(d: {
    orderId: string;
    of: string;
    batchId: string;
    seq: number;
    autoCancel?: boolean;
  }): boolean {
    return (
      prepareCached(
        this.db,
        `INSERT INTO possible_duplicates (order_id, of_order, batch_id, batch_seq, found_at, auto_cancel)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id) DO NOTHING`,
      ).run(d.orderId, d.of, d.batchId, d.seq, this.clock.now(), d.autoCancel ? 'pending' : null)
        .changes === 1
    );
  }

  /** The possible duplicates this desk is to cancel by itself, oldest found first. */
  pendingAutoCancels(): { orderId: string; of: string; batchId: string }[] {
    return prepareCached(
      this.db,
      `SELECT order_id AS orderId, of_order AS of, batch_id AS batchId FROM possible_duplicates
       WHERE auto_cancel = 'pending' ORDER BY found_at, order_id`,
    )
      .all()
      .map((row) =>
        parseRow(
          z.object({ orderId: z.string(), of: z.string(), batchId: z.string() }),
          row,
          'possible_duplicates',
          'auto_cancel',
        ),
      );
  }

  /** What became of a possible duplicate this desk was to cancel. */
  settleAutoCancel(orderId: string, outcome: AutoCancel): void {
    prepareCached(this.db, 'UPDATE possible_duplicates SET auto_cancel = ? WHERE order_id = ?').run(
      outcome,
      orderId,
    );
  }

  /** The possible duplicates found for a batch's items, with each order's status as mirrored. */
  possibleDuplicates(batchId: string): PossibleDuplicate[] {
    return prepareCached(
      this.db,
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
  possibleDuplicateCount(batchId: string): { open: number; cancelled: number } {
    const row = prepareCached(
      this.db,
      `SELECT COUNT(*) FILTER (WHERE (d.auto_cancel IS NULL OR d.auto_cancel = 'refused')
           AND o.status IS NOT 'CANCELLED') AS open,
         COUNT(*) FILTER (WHERE d.auto_cancel = 'done') AS cancelled
       FROM possible_duplicates d LEFT JOIN orders o ON o.id = d.order_id
       WHERE d.batch_id = ?`,
    ).get(batchId) as { open: number; cancelled: number };
    return { open: row.open, cancelled: row.cancelled };
  }

  /** For these orders, the order each may repeat (only those found to). */
  duplicateOf(ids: readonly string[]): Map<string, string> {
    if (ids.length === 0) return new Map();
    const rows = prepareCached(
      this.db,
      `SELECT order_id, of_order FROM possible_duplicates
       WHERE order_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ids)) as { order_id: string; of_order: string }[];
    return new Map(rows.map((r) => [r.order_id, r.of_order]));
  }

  /**
   * At start: a poll scheduled more than `maxWaitMs` from now (an earlier run's steady clock,
   * begun before the PC's clock was set back) is due now. Returns how many moved.
   */
  clampPollSchedule(now: number, maxWaitMs: number): number {
    return prepareCached(
      this.db,
      'UPDATE orders SET next_poll_at = @now WHERE next_poll_at > @now + @max',
    ).run({ now, max: maxWaitMs }).changes;
  }

  schedulePoll(id: string, schedule: { polledAt?: number; nextPollAt: number | null }): boolean {
    return (
      prepareCached(
        this.db,
        `UPDATE orders SET next_poll_at = CASE WHEN status IN (${FINAL_LIST}) THEN NULL ELSE ? END,
           last_polled_at = COALESCE(?, last_polled_at) WHERE id = ?`,
      ).run(schedule.nextPollAt, schedule.polledAt ?? null, id).changes === 1
    );
  }

  private recordStatus(
    id: string,
    status: OrderStatusRead,
    previous: OrderStatusRead | null,
    seenAt: number,
  ): void {
    prepareCached(this.db, INSERT_STATUS_CHANGE).run(id, status, previous, seenAt);
  }

  private row(id: string) {
    const r = prepareCached(
      this.db,
      'SELECT id, source, next_poll_at, last_polled_at, body FROM orders WHERE id = ?',
    ).get(id);
    return r ? this.parse(r) : null;
  }

  private parse(r: unknown) {
    return parseRow(Row, r, 'orders', `id=${(r as { id: unknown }).id}`);
  }
}

/**
 * Where a page's rows are picked: the orders_queue index (created_at, id, status,
 * customer_source_id, search_text) holds the order and every filtered column, so OFFSET skips
 * index entries and no row is read before the page is known. One patient's orders are few: the
 * planner finds them on orders_source_id.
 */
const queueSource = (query: OrderQuery): string =>
  query.sourceId === undefined ? 'orders INDEXED BY orders_queue' : 'orders';

/**
 * Where a count reads: a search reads search_text, on orders_queue rather than the rows (the
 * planner would take orders_status for a status filter, or for the grouping, and read every
 * matching row). Without a search the planner's narrower indexes are cheaper.
 */
const countSource = (query: Omit<OrderQuery, 'limit' | 'offset'>): string =>
  query.sourceId === undefined && orderSearchLikes(query.search).length > 0
    ? 'orders INDEXED BY orders_queue'
    : 'orders';

const whereClause = (where: readonly string[]) =>
  where.length ? `WHERE ${where.join(' AND ')}` : '';

/** The WHERE terms of a query's filters and search on orders. */
function orderFilter(query: Omit<OrderQuery, 'limit' | 'offset'>): {
  where: string[];
  params: unknown[];
} {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.statuses) {
    where.push(`status IN (${query.statuses.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...query.statuses);
  }
  if (query.sourceId !== undefined) {
    where.push('customer_source_id = ?');
    params.push(query.sourceId);
  }
  if (query.createdFrom !== undefined) {
    where.push('created_at >= ?');
    params.push(epochMs(query.createdFrom));
  }
  if (query.createdTo !== undefined) {
    where.push('created_at <= ?');
    params.push(epochMs(query.createdTo));
  }
  for (const like of orderSearchLikes(query.search)) {
    where.push("search_text LIKE ? ESCAPE '\\'");
    params.push(like);
  }
  return { where, params };
}
