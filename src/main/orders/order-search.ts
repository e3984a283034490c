import { normalizeForSearch, searchTerms } from '../protocols/protocol-search';
import { likeContains } from '../db/rows';

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

/** One LIKE pattern per word of the query (none: every order). */
export const orderSearchLikes = (query: string | undefined): string[] =>
  searchTerms(query ?? '').map(likeContains);
