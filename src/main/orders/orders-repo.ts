import { z } from 'zod';
import { AppOrder, type OrderStatus } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { isPollFinal, mergeOrder, POLL_FINAL_STATUSES } from './order-merge';
import { epochMs, jsonText, parseRow, prepareCached, runTransaction } from '../store/rows';

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

export interface OrderQuery {
  statuses?: readonly OrderStatus[];
  /** Orders of this customer (exact sourceId). */
  sourceId?: string;
  /** Only orders created at or after this server time (ISO). */
  createdFrom?: string;
  createdTo?: string;
  limit?: number;
  offset?: number;
}

export interface DueOrder {
  order: AppOrder;
  source: OrderSource;
  lastPolledAt: number | null;
  nextPollAt: number;
}

const INSERT_ORDER = `INSERT INTO orders (id, status, status_precision, customer_source_id, customer_name,
    created_at, updated_at, source, next_poll_at, local_updated_at, body)
  VALUES (@id, @status, @precision, @source_id, @name, @created_at, @updated_at, @source, @next_poll_at, @now, @body)`;

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
  body: JSON.stringify(order),
});

const FINAL_LIST = POLL_FINAL_STATUSES.map((s) => `'${s}'`).join(', ');

/** Mirror of orders: created here (bulk submission) or pulled, with the poller's schedule. */
export class OrdersRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

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
             body = excluded.body`,
        ).run({ ...orderColumns(merged, { source, nextPollAt, now }), changed: changed ? 1 : 0 });
      }
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
    const now = this.clock.now();
    const nextPollAt = isPollFinal(order.status) ? null : now;
    const inserted = prepareCached(this.db, `${INSERT_ORDER} ON CONFLICT (id) DO NOTHING`).run(
      orderColumns(order, { source: 'created', nextPollAt, now }),
    ).changes;
    if (inserted === 0) this.upsert(order, { source: 'created' });
  }

  /** upsert for a page of orders, in one transaction. */
  upsertMany(orders: readonly AppOrder[], source: OrderSource): OrderUpsert[] {
    return runTransaction(this.db, () => orders.map((o) => this.upsert(o, { source })));
  }

  get(id: string): AppOrder | null {
    return this.row(id)?.body ?? null;
  }

  /** Orders newest first (server createdAt), filtered. */
  list(query: OrderQuery = {}): AppOrder[] {
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
    params.push(query.limit ?? -1, query.offset ?? 0);
    const sql = `SELECT id, source, next_poll_at, last_polled_at, body FROM orders
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`;
    return prepareCached(this.db, sql)
      .all(...params)
      .map((r) => this.parse(r).body);
  }

  count(query: Pick<OrderQuery, 'statuses'> = {}): number {
    if (!query.statuses)
      return (prepareCached(this.db, 'SELECT COUNT(*) AS n FROM orders').get() as { n: number }).n;
    const sql = `SELECT COUNT(*) AS n FROM orders WHERE status IN (${query.statuses.map(() => '?').join(', ') || 'NULL'})`;
    return (prepareCached(this.db, sql).get(...query.statuses) as { n: number }).n;
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
  schedulePoll(id: string, schedule: { polledAt?: number; nextPollAt: number | null }): boolean {
    return (
      prepareCached(
        this.db,
        `UPDATE orders SET next_poll_at = CASE WHEN status IN (${FINAL_LIST}) THEN NULL ELSE ? END,
           last_polled_at = COALESCE(?, last_polled_at) WHERE id = ?`,
      ).run(schedule.nextPollAt, schedule.polledAt ?? null, id).changes === 1
    );
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
