import type { DueWindow, ProtocolListState } from '@shared/protocol-views';
import type { Db } from '../db/db';
import { StoreError } from '../db/errors';
import { CHANGE_IN_DOUBT, LIVE_CHANGE_JOIN } from './change-queue';
import {
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  type ProtocolDraft,
  type ProtocolSummary,
} from './protocol-model';
import { COLUMNS_SELECT, ProtocolColumnsRow, type StoredColumns } from './list-columns';
import { DraftRow } from './protocol-reads';
import {
  countMatches,
  planFtsSearch,
  planTrigramSearch,
  searchKeys,
  searchSeqs,
  sortDirection,
  sortKeyIsText,
  type ListKey,
  type ListSort,
  type SortDirection,
} from './protocol-search';
import { parseRow, prepareCached } from '../db/rows';
import { UnchangedCache } from '../db/unchanged-cache';

/** Which protocols: the list's search and filters. */
export interface ProtocolMatchQuery {
  /** Parts of the customer's name, sourceId or email; every word must match. */
  search?: string;
  /** Any of these: a sync state, or 'in-doubt' (the pending change's job is in doubt). */
  syncStates?: readonly ProtocolListState[];
  /** Only the protocols whose draft orders this product (the protocol_products index). */
  productId?: number;
  /** Include protocols deleted locally whose delete is not pushed yet. Default false. */
  includeDeleted?: boolean;
  /** Protocols left out by local id (deleted on screen, their Undo still offered). */
  hide?: readonly string[];
  /** Only those whose next refill falls in the window, counted from `now` (the server's time). */
  due?: { window: DueWindow; now: number };
}

/** The list's order: a sort (default 'changed') and its direction (default the sort's usual). */
export interface ProtocolOrder {
  sort?: ListSort;
  direction?: SortDirection;
}

export interface ProtocolListQuery extends ProtocolMatchQuery, ProtocolOrder {
  /** Default 50, at most 500. */
  limit?: number;
  /** nextCursor of the previous page (same search, filters and sort). */
  cursor?: string | null;
}

/** A protocol as the list shows it: its summary and its columns. */
export type ProtocolListRow = ProtocolSummary & { columns: StoredColumns };

export interface ProtocolPage {
  items: ProtocolListRow[];
  /** Cursor of the next page, or null when this page is the last. */
  nextCursor: string | null;
  /** How many protocols match in all. */
  total: number;
}

const DAY_MS = 86_400_000;

/** The protocol list's reads: its pages, counts, search and every match (for exports). */
export class ProtocolListReads {
  /** The last count of list(), kept while the database is unchanged. */
  private readonly totals: UnchangedCache<number>;

  constructor(private readonly db: Db) {
    this.totals = new UnchangedCache(db, 1);
  }

  /**
   * A page of protocols in the sort's order, filtered and searched, with the number of matches
   * in all. Pages are keyset: a cursor is the last row's place in the order.
   */
  list(query: ProtocolListQuery = {}): ProtocolPage {
    const { items, nextCursor } = this.page(query);
    // A first page that is not full is every match.
    const total =
      query.cursor == null && nextCursor === null ? items.length : this.countMatching(query);
    return { items, nextCursor, total };
  }

  /**
   * A page of protocols without the number of matches, which reads every match of a broad
   * search: the list shows its rows first and asks countMatching after (see use-protocol-list).
   */
  page(query: ProtocolListQuery = {}): Omit<ProtocolPage, 'total'> {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? 50), 1), 500);
    const sort = query.sort ?? 'changed';
    const direction = sortDirection(sort, query.direction);
    const keys = searchKeys(this.db, planFtsSearch(this.db, query.search ?? ''), {
      ...matchFilter(query),
      sort,
      direction,
      after: parseCursor(query.cursor, sort, direction),
      limit,
    });
    const last = keys[keys.length - 1];
    return {
      items: this.listRows(keys.map((k) => k.seq)),
      nextCursor:
        keys.length === limit && last !== undefined ? formatCursor(last, sort, direction) : null,
    };
  }

  /** How many protocols match the search and filters; kept while nothing is written. */
  countMatching(query: ProtocolMatchQuery = {}): number {
    const plan = planFtsSearch(this.db, query.search ?? '');
    const filter = matchFilter(query);
    return this.totals.get(JSON.stringify([plan, filter]), () =>
      countMatches(this.db, plan, filter),
    );
  }

  /** The localIds of every protocol matching, in the list's order (default 'changed'; no paging). */
  matchingIds(query: ProtocolMatchQuery & ProtocolOrder = {}): string[] {
    return this.matchingRows(query, false).map((r) => r.local_id);
  }

  /** The drafts of every protocol matching, in the list's order (a CSV export of the list). */
  matchingDrafts(query: ProtocolMatchQuery & ProtocolOrder = {}): ProtocolDraft[] {
    return this.matchingRows(query, true).map(
      (r) => parseRow(DraftRow, r, 'protocols', `local_id=${r.local_id}`).draft,
    );
  }

  /**
   * The first `limit` protocols matching `text` (see protocol-search.ts), last changed first; no
   * total (the palette's). A text whose trigrams are each common but rare together (a Patient ID's
   * digits) takes the index's candidates for all of them rather than walking every protocol.
   * With `newest`, only the `newest` protocols last changed are looked through (about: ties at the
   * edge are in), a walk of that many entries of protocols_by_change at most.
   */
  search(text: string, limit = 50, newest?: number): ProtocolSummary[] {
    const plan = planTrigramSearch(this.db, 'protocols_fts', text, true);
    const filter = matchFilter({});
    if (newest !== undefined) {
      const edge = prepareCached(
        this.db,
        `SELECT local_updated_at AS at FROM protocols p INDEXED BY protocols_by_change
         WHERE p.deleted = 0 ORDER BY local_updated_at DESC, seq DESC LIMIT 1 OFFSET ?`,
      ).get(Math.max(0, newest - 1)) as { at: number } | undefined;
      if (edge) {
        filter.where.push('p.local_updated_at >= ?');
        filter.params.push(edge.at);
      }
    }
    return this.summaries(searchSeqs(this.db, plan, { ...filter, limit }));
  }

  /** The rows of every protocol matching, in the list's order: their local_id, and the draft. */
  private matchingRows(
    query: ProtocolMatchQuery & ProtocolOrder,
    withDraft: boolean,
  ): { seq: number; local_id: string; draft?: string }[] {
    const plan = planFtsSearch(this.db, query.search ?? '');
    const filter = matchFilter(query);
    const m = searchKeys(this.db, plan, {
      ...filter,
      sort: query.sort ?? 'changed',
      ...(query.direction ? { direction: query.direction } : {}),
    });
    if (m.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT seq, local_id${withDraft ? ', draft' : ''} FROM protocols
       WHERE seq IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(m.map((k) => k.seq))) as { seq: number; local_id: string }[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return m.flatMap((k) => bySeq.get(k.seq) ?? []);
  }

  /** The rows of a page with their columns (protocol_columns), in the order of `seqs`. */
  private listRows(seqs: readonly number[]): ProtocolListRow[] {
    if (seqs.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT p.seq AS seq, ${SUMMARY_SELECT}, ${COLUMNS_SELECT}
       FROM protocols p ${LIVE_CHANGE_JOIN} LEFT JOIN protocol_columns c ON c.seq = p.seq
       WHERE p.seq IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(seqs)) as { seq: number }[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return seqs.map((seq) => {
      const row = bySeq.get(seq);
      return {
        ...parseRow(ProtocolSummaryRow, row, 'protocols', `seq=${seq}`),
        columns: parseRow(ProtocolColumnsRow, row, 'protocol_columns', `seq=${seq}`),
      };
    });
  }

  private summaries(seqs: readonly number[]): ProtocolSummary[] {
    if (seqs.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT p.seq AS seq, ${SUMMARY_SELECT} FROM protocols p ${LIVE_CHANGE_JOIN}
       WHERE p.seq IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(seqs)) as { seq: number }[];
    const bySeq = new Map(rows.map((r) => [r.seq, r]));
    return seqs.map((seq) =>
      parseRow(ProtocolSummaryRow, bySeq.get(seq), 'protocols', `seq=${seq}`),
    );
  }
}

/** The WHERE terms of the list's filters on protocols p. */
function matchFilter(query: ProtocolMatchQuery): {
  where: string[];
  params: unknown[];
  bySeq: boolean;
} {
  const where: string[] = [];
  const params: unknown[] = [];
  if (!query.includeDeleted) where.push('p.deleted = 0');
  if (query.hide && query.hide.length > 0) {
    where.push(`p.local_id NOT IN (${query.hide.map(() => '?').join(', ')})`);
    params.push(...query.hide);
  }
  if (query.productId !== undefined) {
    // The product's protocols, each read on the narrow list index (bySeq), then sorted: the
    // cost follows how many protocols order the product, whatever the sort.
    where.push('p.seq IN (SELECT protocol_seq FROM protocol_products WHERE product_id = ?)');
    params.push(query.productId);
  }
  if (query.due) {
    // The window's protocols on protocol_columns' refill index, then sorted (as a product's).
    const { window, now } = query.due;
    const days = window === 'ran-out' ? 0 : Number(window.slice('within-'.length)) + 1;
    where.push('p.seq IN (SELECT seq FROM protocol_columns WHERE refill_at < ?)');
    params.push(now + days * DAY_MS);
  }
  if (query.syncStates) {
    const states = query.syncStates.filter((s) => s !== 'in-doubt');
    const any: string[] = [];
    if (states.length > 0) {
      any.push(`p.sync_state IN (${states.map(() => '?').join(', ')})`);
      params.push(...states);
    }
    if (query.syncStates.includes('in-doubt')) any.push(CHANGE_IN_DOUBT);
    where.push(any.length ? `(${any.join(' OR ')})` : '0');
  }
  return { where, params, bySeq: query.productId !== undefined || query.due !== undefined };
}

/** "<sort>:<direction>:<seq>:<key>": the last row's place in the order. */
function formatCursor(key: ListKey, sort: ListSort, direction: SortDirection): string {
  return `${sort}:${direction}:${key.seq}:${key.key}`;
}

function parseCursor(
  cursor: string | null | undefined,
  sort: ListSort,
  direction: SortDirection,
): ListKey | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  const m = /^([a-zA-Z]+):(asc|desc):(\d{1,15}):([\s\S]*)$/.exec(cursor);
  if (m && m[1] === sort && m[2] === direction) {
    const key = m[4]!;
    if (sortKeyIsText(sort)) return { seq: Number(m[3]), key };
    if (/^-?\d{1,16}$/.test(key)) return { seq: Number(m[3]), key: Number(key) };
  }
  throw new StoreError(
    'invalid-state',
    `Not a protocol list cursor for the ${sort} sort, ${direction === 'asc' ? 'ascending' : 'descending'}.`,
  );
}
