import { z } from 'zod';
import { ProductRead, type ProductStatusRead } from '@shared/api';
import { PICKER_STATUS_ORDER, pickerRank } from '@shared/api/product-status';
import type { Db } from '../db/db';
import {
  epochMs,
  jsonText,
  likeContains,
  parseRow,
  prepareCached,
  runTransaction,
} from '../db/rows';

const Row = z.object({ id: z.int(), body: jsonText(ProductRead) });

export interface ProductQuery {
  status?: ProductStatusRead | readonly ProductStatusRead[];
  /**
   * Words of the product name, case-insensitive: every word must be found in the name, and
   * punctuation is ignored ("omega 3", "omega-3" and "omega3" all find "Omega-3 Fish Oil").
   */
  search?: string;
  limit?: number;
  offset?: number;
  /** 'name' (the catalog's list); 'orderable': what can be ordered first, then by name (pickers). */
  sort?: 'name' | 'orderable';
}

/** The picker's order in SQL: each known status's rank, an unknown one's rank otherwise. */
const ORDERABLE_RANK = `CASE status ${PICKER_STATUS_ORDER.map(
  (s) => `WHEN '${s}' THEN ${pickerRank(s)}`,
).join(' ')} ELSE ${pickerRank('')} END`;

/** Mirror of the catalog. Products are never removed: the server retires them by status. */
export class ProductsRepo {
  constructor(private readonly db: Db) {}

  /** Inserts or replaces each product, in one transaction. Returns how many were written. */
  upsertMany(products: readonly ProductRead[]): number {
    const statement = prepareCached(
      this.db,
      `INSERT INTO products (id, status, name, updated_at, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET status = excluded.status, name = excluded.name,
         updated_at = excluded.updated_at, body = excluded.body`,
    );
    runTransaction(this.db, () => {
      for (const p of products) {
        statement.run(p.id, p.status, p.name, epochMs(p.updatedAt), JSON.stringify(p));
      }
    });
    return products.length;
  }

  get(id: number): ProductRead | null {
    const row = prepareCached(this.db, 'SELECT id, body FROM products WHERE id = ?').get(id);
    return row ? this.parse(row) : null;
  }

  /**
   * Products by name (then id), or with `sort: 'orderable'` by PICKER_STATUS_ORDER first;
   * optionally of some statuses and matching part of the name.
   */
  list(query: ProductQuery = {}): ProductRead[] {
    const { where, params } = filterOf(query);
    const rank = query.sort === 'orderable' ? `${ORDERABLE_RANK}, ` : '';
    const sql = `SELECT id, body FROM products ${where} ORDER BY ${rank}name COLLATE NOCASE, id LIMIT ? OFFSET ?`;
    return prepareCached(this.db, sql)
      .all(...params, query.limit ?? -1, query.offset ?? 0)
      .map((row) => this.parse(row));
  }

  /** How many products match the status and search of `query` (limit and offset ignored). */
  countMatching(query: Omit<ProductQuery, 'limit' | 'offset'> = {}): number {
    const { where, params } = filterOf(query);
    const row = prepareCached(this.db, `SELECT COUNT(*) AS n FROM products ${where}`).get(
      ...params,
    ) as { n: number };
    return row.n;
  }

  /** The products with these ids that are in the mirror, keyed by id. */
  byIds(ids: readonly number[]): Map<number, ProductRead> {
    const found = new Map<number, ProductRead>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const rows = this.db
        .prepare(`SELECT id, body FROM products WHERE id IN (${chunk.map(() => '?').join(', ')})`)
        .all(...chunk);
      for (const row of rows) {
        const p = this.parse(row);
        found.set(p.id, p);
      }
    }
    return found;
  }

  count(): number {
    return (prepareCached(this.db, 'SELECT COUNT(*) AS n FROM products').get() as { n: number }).n;
  }

  private parse(row: unknown): ProductRead {
    return parseRow(Row, row, 'products', `id=${(row as { id: unknown }).id}`).body;
  }
}

/** The WHERE clause (possibly empty) and its parameters for a query's status and search. */
function filterOf(query: Pick<ProductQuery, 'status' | 'search'>): {
  where: string;
  params: unknown[];
} {
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.status !== undefined) {
    const statuses = typeof query.status === 'string' ? [query.status] : query.status;
    where.push(`status IN (${statuses.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...statuses);
  }
  for (const word of searchWords(query.search ?? '')) {
    // The word in the name as written, or in the name with its punctuation and spaces taken out.
    where.push(`(name LIKE ? ESCAPE '\\' OR ${COMPACT_NAME} LIKE ? ESCAPE '\\')`);
    params.push(likeContains(word), likeContains(word));
  }
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** The punctuation a product name may hold between the parts of a word ("Omega-3", "B-12"). */
const NAME_PUNCTUATION = ['-', ' ', '.', ',', '/', '+', '(', ')', "'", '&', '_'];

/** The name without punctuation or spaces, in SQL: "Omega-3 Fish Oil" -> "Omega3FishOil". */
const COMPACT_NAME = NAME_PUNCTUATION.reduce(
  (sql, c) => `REPLACE(${sql}, '${c.replace(/'/g, "''")}', '')`,
  'name',
);

/** At most this many words of a search are used (the contract caps the text at 200 characters). */
const MAX_SEARCH_WORDS = 20;

/** The words of a search: runs of letters and digits, lower-cased, each once. */
export function searchWords(search: string): string[] {
  const words = search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}
