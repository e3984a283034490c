import { Order, statusToV101, type ListOrdersQuery } from '@shared/api';
import type { Db } from './db';
import { prepareCached, readPage } from './page';

export interface StoredOrder {
  partnerId: string;
  order: Order;
}

/** Orders in their 1.0.2 form; the routes derive the 1.0.1 views. */
export class OrderStore {
  constructor(private readonly db: Db) {}

  /** `json` is JSON.stringify(order), made once by the caller, which also answers with it. */
  insert(partnerId: string, order: Order, nextStepAt: number | null, json: string): void {
    prepareCached(
      this.db,
      'INSERT INTO orders (id, partner_id, status, status_v101, next_step_at, body) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(order.id, partnerId, order.status, statusToV101(order.status), nextStepAt, json);
  }

  update(order: Order, nextStepAt: number | null): void {
    prepareCached(
      this.db,
      'UPDATE orders SET status = ?, status_v101 = ?, next_step_at = ?, body = ? WHERE id = ?',
    ).run(order.status, statusToV101(order.status), nextStepAt, JSON.stringify(order), order.id);
  }

  get(partnerId: string, id: string): Order | undefined {
    const row = prepareCached(
      this.db,
      'SELECT body FROM orders WHERE partner_id = ? AND id = ?',
    ).get(partnerId, id) as { body: string } | undefined;
    return row ? Order.parse(JSON.parse(row.body)) : undefined;
  }

  /** Newest first, optionally filtered by the 1.0.1 status. */
  list(partnerId: string, query: ListOrdersQuery): { orders: Order[]; cursor: string | null } {
    const where = ['partner_id = ?'];
    const params: unknown[] = [partnerId];
    if (query.status) {
      where.push('status_v101 = ?');
      params.push(query.status);
    }
    const page = readPage(
      this.db,
      { resource: 'orders', table: 'orders', key: 'seq', descending: true, where, params },
      query,
    );
    return { orders: page.bodies.map((b) => Order.parse(JSON.parse(b))), cursor: page.cursor };
  }

  count(partnerId: string): number {
    return (
      prepareCached(this.db, 'SELECT COUNT(*) AS n FROM orders WHERE partner_id = ?').get(
        partnerId,
      ) as {
        n: number;
      }
    ).n;
  }

  /** Orders whose next automatic step is due, oldest due first. */
  due(nowMs: number, limit: number): StoredOrder[] {
    const rows = prepareCached(
      this.db,
      'SELECT partner_id, body FROM orders WHERE next_step_at IS NOT NULL AND next_step_at <= ? ORDER BY next_step_at LIMIT ?',
    ).all(nowMs, limit) as { partner_id: string; body: string }[];
    return rows.map((r) => ({ partnerId: r.partner_id, order: Order.parse(JSON.parse(r.body)) }));
  }

  /** Orders with an automatic step scheduled (on their way), soonest first. */
  scheduled(limit: number): StoredOrder[] {
    const rows = prepareCached(
      this.db,
      'SELECT partner_id, body FROM orders WHERE next_step_at IS NOT NULL ORDER BY next_step_at LIMIT ?',
    ).all(limit) as { partner_id: string; body: string }[];
    return rows.map((r) => ({ partnerId: r.partner_id, order: Order.parse(JSON.parse(r.body)) }));
  }

  /** Every scheduled step still ahead of `pivot` waits `ratio` times what it had left. */
  rescaleSteps(pivot: number, ratio: number): void {
    prepareCached(
      this.db,
      `UPDATE orders SET next_step_at = @pivot + CAST((next_step_at - @pivot) * @ratio AS INTEGER)
       WHERE next_step_at IS NOT NULL AND next_step_at > @pivot`,
    ).run({ pivot, ratio });
  }

  /** Every scheduled step moves `deltaMs` later (the time a pause lasted). */
  shiftSteps(deltaMs: number): void {
    prepareCached(
      this.db,
      'UPDATE orders SET next_step_at = next_step_at + ? WHERE next_step_at IS NOT NULL',
    ).run(deltaMs);
  }

  /** When the next automatic step is due, or null when none is scheduled. */
  nextDueAt(): number | null {
    const row = prepareCached(
      this.db,
      'SELECT MIN(next_step_at) AS at FROM orders WHERE next_step_at IS NOT NULL',
    ).get() as {
      at: number | null;
    };
    return row.at;
  }
}
