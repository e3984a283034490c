import type { ProtocolSort, SortDirection } from '@shared/protocol-views';
import type { Db } from '../db/db';
import { likeContains, prepareCached } from '../db/rows';

/**
 * Search over local protocols by customer name, sourceId and email: a protocol matches when every
 * normalised term of the query is a substring of its `search_text`; results come in the list's
 * order. An FTS5 trigram index finds candidates on the two rarest trigrams and LIKE re-checks
 * them; when every trigram is common, the page walks the sort's own index instead. The plan and
 * why: docs/decisions.md, "Protocol search plan".
 */

export const PROBE_CAP = 512;
/** Two trigrams below this count are selective enough: probing stops. */
const SELECTIVE = 64;
/** At most this many trigram probes per query (a long email has many). */
const MAX_PROBES = 24;

export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The searched text of a customer: normalised fields separated by spaces, with a trailing space. */
export function searchTextOf(c: {
  firstName: string;
  lastName: string;
  sourceId: string;
  email?: string | null | undefined;
}): string {
  return `${[c.firstName, c.lastName, c.sourceId, c.email ?? '']
    .map(normalizeForSearch)
    .filter(Boolean)
    .join(' ')} `;
}

export type SearchPlan =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'fts'; match: string; likes: string[] }
  | { kind: 'scan'; likes: string[] };

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

function trigrams(term: string): string[] {
  const chars = [...term];
  const out: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(''));
  return out;
}

export function searchTerms(query: string): string[] {
  const normalized = normalizeForSearch(query);
  return normalized ? [...new Set(normalized.split(' '))] : [];
}

/** The plan of the chosen approach: FTS5 trigram candidates on the rarest trigrams, LIKE re-check. */
export function planFtsSearch(db: Db, query: string): SearchPlan {
  return planTrigramSearch(db, 'protocols_fts', query);
}

/**
 * The same plan on another trigram FTS5 table (`fts`, detail=none). With `intersect`, a query
 * whose every trigram is common asks the index once more for all of them together (at most
 * MAX_PROBES), and takes those candidates when they are fewer than PROBE_CAP: a Patient ID or an
 * order id is made of digit trigrams that are each common and rare together.
 */
export function planTrigramSearch(
  db: Db,
  fts: 'protocols_fts' | 'order_search_fts',
  query: string,
  intersect = false,
): SearchPlan {
  const terms = searchTerms(query);
  if (terms.length === 0) return { kind: 'all' };
  const likes = terms.map(likeContains);
  const grams = [...new Set(terms.flatMap(trigrams))];
  if (grams.length === 0) return { kind: 'scan', likes };
  const probe = prepareCached(
    db,
    `SELECT COUNT(*) AS n FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? LIMIT ${PROBE_CAP})`,
  );
  const counted: { gram: string; n: number }[] = [];
  for (const gram of grams.slice(0, MAX_PROBES)) {
    const n = (probe.get(quote(gram)) as { n: number }).n;
    if (n === 0) return { kind: 'none' };
    counted.push({ gram, n });
    if (counted.filter((c) => c.n < SELECTIVE).length >= 2) break;
  }
  counted.sort((a, b) => a.n - b.n);
  const rare = counted.filter((c) => c.n < PROBE_CAP).slice(0, 2);
  // Every trigram is common: its candidates would all be read and sorted for one page, while
  // walking the list's own order finds a page of such common matches after a few rows.
  if (rare.length === 0) {
    if (!intersect || grams.length < 2) return { kind: 'scan', likes };
    const all = grams.slice(0, MAX_PROBES).map(quote).join(' AND ');
    const n = (probe.get(all) as { n: number }).n;
    if (n === 0) return { kind: 'none' };
    return n < PROBE_CAP ? { kind: 'fts', match: all, likes } : { kind: 'scan', likes };
  }
  return { kind: 'fts', match: rare.map((c) => quote(c.gram)).join(' AND '), likes };
}

/** The plan of the measured alternative: LIKE over the protocols_list index, no FTS. */
export function planLikeSearch(query: string): SearchPlan {
  const terms = searchTerms(query);
  return terms.length === 0 ? { kind: 'all' } : { kind: 'scan', likes: terms.map(likeContains) };
}

/**
 * The list's orders. 'changed' (newest first by default) and 'name' read the protocols table's
 * own covering indexes; the others read protocol_columns (migration 12), a narrow table of the
 * values the list's columns show, each on its (key, seq) index. Ties are broken by seq.
 */
export type ListSort = ProtocolSort;
export type { SortDirection };

interface SortKey {
  /** The sort's key column, on protocols p or protocol_columns c. */
  column: string;
  /** protocol_columns' index that walks this key in order (its sorts only). */
  index?: string;
  /** Its direction when none is asked for. */
  direction: SortDirection;
  /** The key is text (a cursor carries it as text, else as a number). */
  text: boolean;
}

const SORT_KEYS: Record<ListSort, SortKey> = {
  changed: { column: 'p.local_updated_at', direction: 'desc', text: false },
  name: { column: 'p.sort_name', direction: 'asc', text: true },
  products: {
    column: 'c.products_key',
    index: 'protocol_columns_products',
    direction: 'asc',
    text: true,
  },
  supply: {
    column: 'c.days_supply',
    index: 'protocol_columns_supply',
    direction: 'asc',
    text: false,
  },
  shipping: {
    column: 'c.ship_label',
    index: 'protocol_columns_shipping',
    direction: 'asc',
    text: true,
  },
  lastOrder: {
    column: 'c.last_order_at',
    index: 'protocol_columns_last_order',
    direction: 'desc',
    text: false,
  },
  nextRefill: {
    column: 'c.refill_at',
    index: 'protocol_columns_refill',
    direction: 'asc',
    text: false,
  },
  sync: { column: 'c.sync_rank', index: 'protocol_columns_sync', direction: 'asc', text: false },
};

/** The direction of a sort: the one asked for, else the column's usual one. */
export function sortDirection(sort: ListSort, direction?: SortDirection): SortDirection {
  return direction ?? SORT_KEYS[sort].direction;
}

/** Whether a sort's key is text (the list cursor parses it accordingly). */
export const sortKeyIsText = (sort: ListSort): boolean => SORT_KEYS[sort].text;

/** Where a page starts: after this row of the previous page (keyset). */
export interface ListKey {
  seq: number;
  /** The row's key in the sort (sort_name, local_updated_at or a protocol_columns value). */
  key: string | number;
}

export interface SearchFilter {
  /** Extra conditions on protocols p (e.g. "p.deleted = 0") and their parameters. */
  where: readonly string[];
  params: readonly unknown[];
  /**
   * The conditions pick rows by seq from another table (a product's protocols, a refill
   * window's): read each of them on the narrow protocols_list index, never the wide table row
   * SQLite would otherwise look up by rowid (a product's 6,000 protocols: 9 ms on the rows, 2 ms
   * on the index).
   */
  bySeq?: boolean;
}

export interface SearchPage extends SearchFilter {
  /** Default 'changed'. */
  sort?: ListSort;
  /** Default the sort's usual direction (sortDirection). */
  direction?: SortDirection;
  /** Only rows after this one in the sort's order (keyset cursor). */
  after?: ListKey | undefined;
  /** No limit when absent (every match, e.g. "select all matching"). */
  limit?: number;
}

/**
 * The tables a plan reads: the FTS index's candidates, a filter's protocols by seq (bySeq), or
 * every protocol; with a column's sort (columnsIndex), each row's protocol_columns too.
 */
function fromClause(plan: SearchPlan, filter: SearchFilter, columnsIndex?: string): string {
  if (columnsIndex && plan.kind !== 'fts' && !filter.bySeq) {
    // Walk the column's index in order and check each row's filters on the narrow list index:
    // a page stops after `limit` matches, whatever the number of protocols.
    return `protocol_columns c INDEXED BY ${columnsIndex}
      CROSS JOIN protocols p INDEXED BY protocols_list ON p.seq = c.seq`;
  }
  const from =
    plan.kind === 'fts'
      ? // CROSS JOIN keeps the FTS index as the outer loop, read in rowid order; each candidate
        // is re-checked on the narrow protocols_list index, not on the wide table row.
        'protocols_fts f CROSS JOIN protocols p INDEXED BY protocols_list ON p.seq = f.rowid'
      : filter.bySeq
        ? 'protocols p INDEXED BY protocols_list'
        : 'protocols p';
  // Few candidates (a search's, a filter's): each finds its columns by seq, then all are sorted.
  return columnsIndex ? `${from} JOIN protocol_columns c ON c.seq = p.seq` : from;
}

/** FROM, WHERE and parameters of the rows a plan matches (null: none can match). */
function matching(
  plan: SearchPlan,
  filter: SearchFilter,
  columnsIndex?: string,
): { from: string; where: string[]; params: unknown[] } | null {
  if (plan.kind === 'none') return null;
  const where = [...filter.where];
  const params: unknown[] = [];
  if (plan.kind === 'fts') {
    where.unshift('protocols_fts MATCH ?');
    params.push(plan.match);
  }
  params.push(...filter.params);
  if (plan.kind === 'fts' || plan.kind === 'scan') {
    for (const like of plan.likes) {
      where.push("p.search_text LIKE ? ESCAPE '\\'");
      params.push(like);
    }
  }
  return { from: fromClause(plan, filter, columnsIndex), where, params };
}

const whereClause = (where: readonly string[]) =>
  where.length ? `WHERE ${where.join(' AND ')}` : '';

/**
 * The rows a plan finds, in the sort's order, with their sort keys. Only seq, deleted,
 * sync_state, search_text and the sort's key are read unless `page.where` names other columns,
 * so a scan stays on indexes.
 */
export function searchKeys(db: Db, plan: SearchPlan, page: SearchPage): ListKey[] {
  const sort = page.sort ?? 'changed';
  const key = SORT_KEYS[sort];
  const m = matching(plan, page, key.index);
  if (!m) return [];
  const { from, where, params } = m;
  const desc = sortDirection(sort, page.direction) === 'desc';
  const seqColumn = plan.kind === 'fts' ? 'f.rowid' : 'p.seq';
  const dir = desc ? 'DESC' : 'ASC';
  // The tie-break on the same table as the key, so that the pair is the index's order.
  const tie = key.index ? 'c.seq' : 'p.seq';
  const order = `${key.column} ${dir}, ${tie} ${dir}`;
  if (page.after) {
    where.push(`(${key.column}, ${tie}) ${desc ? '<' : '>'} (?, ?)`);
    params.push(page.after.key, page.after.seq);
  }
  let sql = `SELECT ${seqColumn} AS seq, ${key.column} AS key FROM ${from} ${whereClause(where)} ORDER BY ${order}`;
  if (page.limit !== undefined) {
    sql += ' LIMIT ?';
    params.push(page.limit);
  }
  return prepareCached(db, sql).all(...params) as ListKey[];
}

/** The seqs of the protocols a plan finds, in the sort's order (last changed first by default). */
export function searchSeqs(db: Db, plan: SearchPlan, page: SearchPage): number[] {
  return searchKeys(db, plan, page).map((r) => r.seq);
}

/** How many protocols a plan finds with the filter (every page). */
export function countMatches(db: Db, plan: SearchPlan, filter: SearchFilter): number {
  const m = matching(plan, filter);
  if (!m) return 0;
  return (
    prepareCached(db, `SELECT COUNT(*) AS n FROM ${m.from} ${whereClause(m.where)}`).get(
      ...m.params,
    ) as { n: number }
  ).n;
}

/** Characters of each name part kept in the sort key (the list cursor carries the key). */
const SORT_PART_MAX = 80;

const sortPart = (text: string): string => {
  const part = normalizeForSearch(text).slice(0, SORT_PART_MAX);
  // Never end on half of a surrogate pair.
  return /[\uD800-\uDBFF]$/.test(part) ? part.slice(0, -1) : part;
};

/**
 * The key of the list's 'name' sort: last name, then first name, normalised as the search is
 * (case and diacritics folded) and separated by U+001F, which sorts before every printable
 * character ("Smith, Zoe" before "Smithson, Al"). Ties are broken by seq.
 */
export function nameSortKey(c: { firstName: string; lastName: string }): string {
  return `${sortPart(c.lastName)}\u001f${sortPart(c.firstName)}`;
}
