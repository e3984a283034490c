import type { Db } from '../db/db';
import {
  normalizeForSearch,
  planTrigramSearch,
  type SearchPlan,
} from '../protocols/protocol-search';

/**
 * The queue's search: an order matches when every word of the query is a substring of its
 * patient's name, sourceId or id, folded as the protocol search folds text (case, diacritics).
 */
export function orderSearchText(order: {
  id: string;
  customer: { firstName: string; lastName: string; sourceId: string };
}): string {
  const c = order.customer;
  return `${[c.firstName, c.lastName, c.sourceId, order.id]
    .map(normalizeForSearch)
    .filter(Boolean)
    .join(' ')} `;
}

/**
 * How the orders matching `query` are found (protocol-search.ts's plan on order_search_fts,
 * migration 19): 'fts', candidates on the rarest trigrams (or all of them together) re-checked
 * with LIKE on order_search; 'scan', every trigram common, the LIKEs on the queue's own index
 * walked newest first, where a page of such matches comes after a few rows; 'none'; 'all'.
 */
export const planOrderSearch = (db: Db, query: string | undefined): SearchPlan =>
  planTrigramSearch(db, 'order_search_fts', query ?? '', true);
