import type { z } from 'zod';
import type { Db } from './db';
import { parseJsonRow, prepareCached } from './rows';

/** Keys of the sync cursors and marks. */
export const SYNC_KEYS = {
  /** ISO timestamp: the newest product updatedAt pulled; the next pull asks updatedAfter it. */
  productsUpdatedAfter: 'products.updatedAfter',
  /** Epoch ms of the last complete protocol pull (local clock). */
  protocolsLastFullPull: 'protocols.lastFullPull',
  /** Epoch ms of the last order pull (local clock). */
  ordersLastPull: 'orders.lastPull',
  /**
   * The partner settings prices depend on (discount, discountValue) and when they were read:
   * at connect, by every full sync, and by the Settings screen; absent until then. Every
   * estimate prices with them (src/main/catalog/partner-pricing.ts).
   */
  partnerPricing: 'partner.pricing',
  /**
   * {from, readAt} in the server's time: the mirror holds every server order made since `from`,
   * as read by a walk that began at `readAt` (see orders/recent-orders.ts).
   */
  recentOrders: 'orders.recent',
  /** Epoch ms of the last shipping methods pull (local clock). */
  shippingMethodsLastPull: 'shippingMethods.lastPull',
} as const;

/**
 * Cursors and marks of the sync engine as JSON values, parsed with the caller's schema on read.
 * Unlike settings, a value that does not match is a CorruptRowError: a cursor read wrongly could
 * skip data. Each connection's store has its own.
 */
export class SyncStateRepo {
  constructor(private readonly db: Db) {}

  get<S extends z.ZodType>(key: string, schema: S): z.output<S> | null {
    const row = prepareCached(this.db, 'SELECT value FROM sync_state WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? parseJsonRow(schema, row.value, 'sync_state', `key=${key}`) : null;
  }

  has(key: string): boolean {
    return prepareCached(this.db, 'SELECT 1 FROM sync_state WHERE key = ?').get(key) !== undefined;
  }

  set(key: string, value: unknown): void {
    if (value === undefined)
      throw new TypeError(`Sync state ${key}: undefined is not a value; use delete().`);
    prepareCached(
      this.db,
      'INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }

  delete(key: string): boolean {
    return prepareCached(this.db, 'DELETE FROM sync_state WHERE key = ?').run(key).changes === 1;
  }
}
