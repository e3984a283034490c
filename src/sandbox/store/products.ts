import { Product, type ListProductsQuery, type ProductStatus } from '@shared/api';
import { isoAt } from '../clock';
import type { Db } from './db';
import { prepareCached, readPage } from './page';

export type ProductSeed = Omit<Product, 'createdAt' | 'updatedAt'>;

const DAY = 86_400_000;

/** The catalog. Parsed products are cached in memory; every write goes through here and clears it. */
export class ProductStore {
  private readonly cache = new Map<number, Product>();

  constructor(private readonly db: Db) {}

  /** Inserts the seed products that are not there yet, with update times spread over 90 days. */
  seed(products: readonly ProductSeed[], nowMs: number): void {
    const insert = prepareCached(
      this.db,
      'INSERT OR IGNORE INTO products (id, status, updated_at, body) VALUES (?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      products.forEach((seed, i) => {
        const createdAt = isoAt(nowMs - 180 * DAY + i * 60_000);
        const updatedAt = isoAt(nowMs - (1 + ((i * 7) % 90)) * DAY - i * 60_000);
        const product = Product.parse({ ...seed, createdAt, updatedAt });
        insert.run(product.id, product.status, product.updatedAt, JSON.stringify(product));
      });
    })();
    this.cache.clear();
  }

  get(id: number): Product | undefined {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const row = prepareCached(this.db, 'SELECT body FROM products WHERE id = ?').get(id) as
      { body: string } | undefined;
    if (!row) return undefined;
    const product = Product.parse(JSON.parse(row.body));
    this.cache.set(id, product);
    return product;
  }

  list(query: ListProductsQuery): { products: Product[]; cursor: string | null } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.updatedAfter) {
      where.push('updated_at > ?');
      params.push(query.updatedAfter);
    }
    if (query.updatedBefore) {
      where.push('updated_at < ?');
      params.push(query.updatedBefore);
    }
    const page = readPage(
      this.db,
      { resource: 'products', table: 'products', key: 'id', descending: false, where, params },
      query,
    );
    return { products: page.bodies.map((b) => Product.parse(JSON.parse(b))), cursor: page.cursor };
  }

  /** Sandbox control: change a product's status or price, as the partner's catalog team would. */
  update(
    id: number,
    change: { status?: ProductStatus; price?: string },
    nowMs: number,
  ): Product | undefined {
    const current = this.get(id);
    if (!current) return undefined;
    const next = Product.parse({ ...current, ...change, updatedAt: isoAt(nowMs) });
    prepareCached(
      this.db,
      'UPDATE products SET status = ?, updated_at = ?, body = ? WHERE id = ?',
    ).run(next.status, next.updatedAt, JSON.stringify(next), id);
    this.cache.delete(id);
    return next;
  }
}
