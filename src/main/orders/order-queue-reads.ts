import { ORDER_STATUSES, OrderStatusRead, type AppOrder } from '@shared/api';
import type { Db } from '../db/db';
import { epochMs, prepareCached } from '../db/rows';
import { UnchangedCache } from '../db/unchanged-cache';
import { ORDER_ROW_COLUMNS, parseOrderRow } from './order-mirror-reads';
import { planOrderSearch } from './order-search';

export interface OrderQuery {
  statuses?: readonly OrderStatusRead[];
  /** Orders of this customer (exact sourceId). */
  sourceId?: string;
  /** Only orders created at or after this server time (ISO). */
  createdFrom?: string;
  createdTo?: string;
  /** Words of the patient's name, sourceId or the order id; every word must match. */
  search?: string;
  /** Only among the `newest` orders in the queue's order (about: ties at the edge are in). */
  newest?: number;
  limit?: number;
  offset?: number;
}

/** The queue's reads: its pages, the export walk, its totals and counts per status. */
export class OrderQueueReads {
  /** Totals of list queries and counts per status, kept while the database is unchanged. */
  private readonly totals: UnchangedCache<number>;
  private readonly statusCounts: UnchangedCache<Record<OrderStatusRead, number>>;

  constructor(private readonly db: Db) {
    this.totals = new UnchangedCache(db);
    this.statusCounts = new UnchangedCache(db);
  }

  /**
   * Orders newest first (server createdAt), filtered and searched. The page's rows are picked on
   * a narrow index (OFFSET walks index entries, not the rows and their wide body), then only
   * those rows are read. A page past the middle is picked from the oldest end (with the total,
   * kept while nothing changes), so the last page costs what the first does.
   */
  list(query: OrderQuery = {}): AppOrder[] {
    const { where, params, source } = orderFilter(this.db, query);
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
      `SELECT rowid AS r FROM ${source} ${whereClause(where)}
       ORDER BY created_at ${order}, id ${order} LIMIT ? OFFSET ?`,
    )
      .all(...params, take, skip)
      .map((row) => (row as { r: number }).r);
    const page = order === 'ASC' ? picked.reverse() : picked;
    return this.rowsInOrder(page);
  }

  /**
   * Every order matching the filters and search (paging aside), in the list's order (newest
   * first), one at a time: the rows are walked on the same index and WHERE terms as list(), and
   * each body is parsed only when it is reached, so an export of 100,000 orders never holds them
   * all as objects. The statement keeps the connection busy until the walk ends: consume it
   * without running other queries meanwhile.
   */
  *matching(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): Generator<AppOrder> {
    const { where, params, source } = orderFilter(this.db, query);
    const rows = prepareCached(
      this.db,
      `SELECT ${ORDER_ROW_COLUMNS} FROM ${source}
       ${whereClause(where)} ORDER BY created_at DESC, id DESC`,
    ).iterate(...params);
    for (const row of rows) yield parseOrderRow(row).body;
  }

  /**
   * How many orders match the query's filters and search (no paging). Kept while the database
   * is unchanged, so the next pages of one list do not count again.
   */
  count(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): number {
    // The cache key is the WHERE terms and their values: exactly what the count depends on.
    const { where, params, counted } = orderFilter(this.db, query);
    return this.totals.get(JSON.stringify([where, params]), () => {
      const sql = `SELECT COUNT(*) AS n FROM ${counted} ${whereClause(where)}`;
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
    const { where, params, counted } = orderFilter(this.db, query);
    const counts = this.statusCounts.get(JSON.stringify([where, params]), () => {
      const rows = prepareCached(
        this.db,
        `SELECT status, COUNT(*) AS n FROM ${counted} ${whereClause(where)} GROUP BY status`,
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

  /** The orders of these rowids, in their order (a page picked on the index). */
  private rowsInOrder(page: readonly number[]): AppOrder[] {
    if (page.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT rowid AS r, ${ORDER_ROW_COLUMNS} FROM orders
       WHERE rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(page)) as { r: number }[];
    const byRowid = new Map(rows.map((r) => [r.r, r]));
    return page.flatMap((r) => {
      const row = byRowid.get(r);
      return row ? [parseOrderRow(row).body] : [];
    });
  }
}

/**
 * Where a page's rows are picked: the orders_queue index (created_at, id, status,
 * customer_source_id, search_text) holds the order and every filtered column, so OFFSET skips
 * index entries and no row is read before the page is known. One patient's orders are few: the
 * planner finds them on orders_source_id; so are the candidates of a search on the trigram index
 * (at most PROBE_CAP), found by id and sorted.
 */
const QUEUE = 'orders INDEXED BY orders_queue';

const whereClause = (where: readonly string[]) =>
  where.length ? `WHERE ${where.join(' AND ')}` : '';

/**
 * The WHERE terms of a query's filters and search on orders, where a page's rows are picked
 * (`source`), and where a count reads (`counted`): a search walking orders_queue counts on it,
 * since search_text is there and not in the narrower indexes (the planner would take
 * orders_status for a status filter, or for the grouping, and read every matching row); any
 * other count reads the planner's choice.
 */
function orderFilter(
  db: Db,
  query: Omit<OrderQuery, 'limit' | 'offset'>,
): { where: string[]; params: unknown[]; source: string; counted: string } {
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
  if (query.newest !== undefined) {
    // The queue's order from its newest end: the edge is found on orders_queue, a walk of
    // `newest` entries, and the page's own walk stops there.
    const edge = prepareCached(
      db,
      `SELECT created_at AS at FROM ${QUEUE} ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`,
    ).get(Math.max(0, query.newest - 1)) as { at: number } | undefined;
    if (edge) {
      where.push('created_at >= ?');
      params.push(edge.at);
    }
  }
  const plan = planOrderSearch(db, query.search);
  const onQueue = query.sourceId === undefined && plan.kind !== 'fts';
  if (plan.kind === 'none') where.push('0');
  if (plan.kind === 'scan')
    for (const like of plan.likes) {
      where.push("search_text LIKE ? ESCAPE '\\'");
      params.push(like);
    }
  if (plan.kind === 'fts') {
    where.push(
      `id IN (SELECT s.order_id FROM order_search s WHERE s.seq IN
        (SELECT rowid FROM order_search_fts WHERE order_search_fts MATCH ?)
        ${plan.likes.map(() => "AND s.search_text LIKE ? ESCAPE '\\'").join(' ')})`,
    );
    params.push(plan.match, ...plan.likes);
  }
  return {
    where,
    params,
    source: onQueue ? QUEUE : 'orders',
    counted: onQueue && plan.kind === 'scan' ? QUEUE : 'orders',
  };
}
