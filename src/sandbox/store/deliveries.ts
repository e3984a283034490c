import { z } from 'zod';
import { WebhookPayload, type Order } from '@shared/api';
import type { Db } from './db';
import { newId } from './ids';
import { prepareCached } from './page';

export const DeliveryState = z.enum(['pending', 'delivered', 'failed']);

/** A webhook delivery as the sandbox controls list it. */
export const Delivery = z.object({
  id: z.string(),
  orderId: z.string(),
  status: z.string(),
  state: DeliveryState,
  attempts: z.int(),
  nextAttemptAt: z.number().nullable(),
  lastStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.number(),
  payload: z.string(),
});
export type Delivery = z.infer<typeof Delivery>;

interface Row {
  id: string;
  partner_id: string;
  order_id: string;
  status: string;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  payload: string;
}

const toDelivery = (r: Row): Delivery =>
  Delivery.parse({
    id: r.id,
    orderId: r.order_id,
    status: r.status,
    state: r.state,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: r.created_at,
    payload: r.payload,
  });

/** The body of the status webhook for an order as it is now (the spec's Payload table). */
export function webhookPayload(order: Order): string {
  const payload = WebhookPayload.parse({
    order: {
      orderId: order.id,
      status: order.status,
      ...(order.fulfillmentInfo ? { fulfillmentInfo: order.fulfillmentInfo } : {}),
      createdAt: order.createdAt,
      updatedAt: order.updatedAt,
    },
  });
  return JSON.stringify(payload);
}

/** The durable outbox of webhook deliveries: written in the same transaction as the order change. */
export class DeliveryStore {
  constructor(private readonly db: Db) {}

  enqueue(partnerId: string, order: Order, nowMs: number): string {
    const id = newId('msg', nowMs);
    prepareCached(
      this.db,
      `INSERT INTO webhook_deliveries (id, partner_id, order_id, status, payload, state, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)`,
    ).run(id, partnerId, order.id, order.status, webhookPayload(order), nowMs, nowMs);
    return id;
  }

  /**
   * Claims due deliveries: counts the attempt and pushes the next attempt time to `leaseUntil`,
   * so that a crash during the attempt leads to a retry rather than a lost webhook.
   */
  claimDue(nowMs: number, limit: number, leaseUntil: number): (Delivery & { partnerId: string })[] {
    return this.db.transaction(() => {
      const rows = prepareCached(
        this.db,
        `SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= ?
         ORDER BY next_attempt_at, seq LIMIT ?`,
      ).all(nowMs, limit) as Row[];
      const claim = prepareCached(
        this.db,
        'UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?',
      );
      return rows.map((r) => {
        claim.run(leaseUntil, r.id);
        return {
          ...toDelivery({ ...r, attempts: r.attempts + 1, next_attempt_at: leaseUntil }),
          partnerId: r.partner_id,
        };
      });
    })();
  }

  recordSuccess(id: string, httpStatus: number): void {
    prepareCached(
      this.db,
      `UPDATE webhook_deliveries SET state = 'delivered', next_attempt_at = NULL, last_status = ?, last_error = NULL WHERE id = ?`,
    ).run(httpStatus, id);
  }

  /** Records a failed attempt: the next one at `retryAt`, or failed for good when it is null. */
  recordFailure(
    id: string,
    httpStatus: number | null,
    error: string,
    retryAt: number | null,
  ): void {
    prepareCached(
      this.db,
      `UPDATE webhook_deliveries SET state = ?, next_attempt_at = ?, last_status = ?, last_error = ? WHERE id = ?`,
    ).run(retryAt === null ? 'failed' : 'pending', retryAt, httpStatus, error, id);
  }

  nextDueAt(): number | null {
    const row = prepareCached(
      this.db,
      `SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE state = 'pending'`,
    ).get() as { at: number | null };
    return row.at;
  }

  list(partnerId: string, orderId?: string): Delivery[] {
    const rows = (
      orderId
        ? prepareCached(
            this.db,
            'SELECT * FROM webhook_deliveries WHERE partner_id = ? AND order_id = ? ORDER BY seq',
          ).all(partnerId, orderId)
        : prepareCached(
            this.db,
            'SELECT * FROM webhook_deliveries WHERE partner_id = ? ORDER BY seq DESC LIMIT 200',
          ).all(partnerId)
    ) as Row[];
    return rows.map(toDelivery);
  }
}
