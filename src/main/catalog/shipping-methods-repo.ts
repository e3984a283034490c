import { z } from 'zod';
import { ShippingMethodInfo, type ShippingMethod } from '@shared/api';
import type { Db } from '../db/db';
import { jsonText, parseRow, prepareCached, runTransaction } from '../db/rows';

const Row = z.object({ id: z.string(), body: jsonText(ShippingMethodInfo) });

/** Mirror of the shipping methods: a small list replaced as a whole on every pull. */
export class ShippingMethodsRepo {
  constructor(private readonly db: Db) {}

  /** Replaces the stored list with `methods`, keeping their order, in one transaction. */
  replaceAll(methods: readonly ShippingMethodInfo[]): void {
    const insert = prepareCached(
      this.db,
      'INSERT INTO shipping_methods (id, position, body) VALUES (?, ?, ?)',
    );
    runTransaction(this.db, () => {
      prepareCached(this.db, 'DELETE FROM shipping_methods').run();
      methods.forEach((m, i) => insert.run(m.id, i, JSON.stringify(m)));
    });
  }

  list(): ShippingMethodInfo[] {
    return prepareCached(this.db, 'SELECT id, body FROM shipping_methods ORDER BY position')
      .all()
      .map((row) => this.parse(row));
  }

  get(id: ShippingMethod): ShippingMethodInfo | null {
    const row = prepareCached(this.db, 'SELECT id, body FROM shipping_methods WHERE id = ?').get(
      id,
    );
    return row ? this.parse(row) : null;
  }

  private parse(row: unknown): ShippingMethodInfo {
    return parseRow(Row, row, 'shipping_methods', `id=${(row as { id: unknown }).id}`).body;
  }
}
