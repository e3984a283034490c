import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ProtocolDraft as ProtocolDraftSchema,
  type ProtocolRead,
  type ProtocolRequest,
} from '@shared/api';
import { CustomerInput, ProtocolInput } from '@shared/protocol-input';
import type { DueWindow, ProtocolListState } from '@shared/protocol-views';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import type { JobsRepo } from '../jobs/jobs-repo';
import {
  CHANGE_IN_DOUBT,
  LIVE_CHANGE_JOIN,
  forgetProtocol,
  reconcileChange,
  type ChangeEffect,
} from '../jobs/protocol/change-queue';
import * as pull from './protocol-pull';
import type { ServerUpsert } from './protocol-pull';
import * as server from './server-changes';
import {
  ORDER_SOURCE_SELECT,
  ProtocolOrderSourceRow,
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  draftColumns,
  readLocalProtocol,
  type ConflictKind,
  type LocalProtocol,
  type ProtocolDraft,
  type ProtocolOrderSource,
  type ProtocolSummary,
} from './protocol-model';
import { COLUMNS_SELECT, ProtocolColumnsRow, type StoredColumns } from './list-columns';
import {
  countMatches,
  planFtsSearch,
  searchKeys,
  searchSeqs,
  sortDirection,
  sortKeyIsText,
  type ListKey,
  type ListSort,
  type SortDirection,
} from './protocol-search';
import { jsonText, parseRow, prepareCached, runTransaction } from '../store/rows';
import { UnchangedCache } from '../store/unchanged-cache';

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

export type { ServerUpsert };

/**
 * Local protocols: offline drafting (each write and its pending change, a job, in one
 * transaction), reads and search, the mirror pull (upsertManyFromServer, markDeletedOnServer), and the
 * updates conflict resolutions are made of.
 */
export class ProtocolsRepo {
  /** The last count of list(), kept while the database is unchanged. */
  private readonly totals: UnchangedCache<number>;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jobs: JobsRepo,
  ) {
    this.totals = new UnchangedCache(db, 1);
  }

  get(localId: string): LocalProtocol | null {
    return readLocalProtocol(this.db, 'local_id', localId);
  }

  getByServerId(serverId: string): LocalProtocol | null {
    return readLocalProtocol(this.db, 'server_id', serverId);
  }

  /** What making an order of the protocol needs (see ProtocolOrderSource), or null. */
  orderSource(localId: string): ProtocolOrderSource | null {
    const row = prepareCached(
      this.db,
      `SELECT ${ORDER_SOURCE_SELECT} FROM protocols WHERE local_id = ?`,
    ).get(localId);
    return row ? parseRow(ProtocolOrderSourceRow, row, 'protocols', `local_id=${localId}`) : null;
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

  /** The first `limit` protocols matching `text` (see protocol-search.ts), last changed first; no total. */
  search(text: string, limit = 50): ProtocolSummary[] {
    const plan = planFtsSearch(this.db, text);
    return this.summaries(searchSeqs(this.db, plan, { ...matchFilter({}), limit }));
  }

  count(options: { includeDeleted?: boolean } = {}): number {
    const sql = options.includeDeleted
      ? 'SELECT COUNT(*) AS n FROM protocols'
      : 'SELECT COUNT(*) AS n FROM protocols WHERE deleted = 0';
    return (prepareCached(this.db, sql).get() as { n: number }).n;
  }

  /** Server ids of every local protocol that has one (to find those deleted on the server). */
  serverIds(): string[] {
    return (
      prepareCached(
        this.db,
        'SELECT server_id FROM protocols WHERE server_id IS NOT NULL',
      ).all() as {
        server_id: string;
      }[]
    ).map((r) => r.server_id);
  }

  /**
   * A new protocol drafted locally: the row and its pending create, in one transaction. The draft
   * must be a valid ProtocolInput (parsed here: a ZodError lists what is wrong); a stored
   * ProtocolDraft may be passed back (keep both).
   */
  createDraft(draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolInput.parse(draft);
    const now = this.clock.now();
    return this.require(runTransaction(this.db, () => this.insertDraft(d, now)));
  }

  /**
   * Many new protocols drafted locally (a CSV import): every row and its pending create in ONE
   * transaction, so either all of them are written or, when one fails, none. Each draft must be a
   * valid ProtocolInput (a ZodError otherwise). Returns the new localIds, in order.
   */
  createDrafts(drafts: readonly ProtocolRequest[]): string[] {
    const parsed = drafts.map((d) => ProtocolInput.parse(d));
    const now = this.clock.now();
    // No savepoint per row (createDraft nested would make one): FTS5 flushes at each savepoint.
    return runTransaction(this.db, () => parsed.map((d) => this.insertDraft(d, now)));
  }

  /** The row of a new local draft and its pending create; inside the caller's transaction. */
  private insertDraft(d: ProtocolRequest, now: number): string {
    const localId = randomUUID();
    prepareCached(
      this.db,
      `INSERT INTO protocols (local_id, customer_name, source_id, email, search_text, sort_name, draft,
         sync_state, created_at, local_updated_at)
       VALUES (@local_id, @customer_name, @source_id, @email, @search_text, @sort_name, @draft, 'pending', @now, @now)`,
    ).run({ local_id: localId, now, ...draftColumns(d) });
    reconcileChange(this.ctx(), localId, true);
    return localId;
  }

  /** The drafts of the protocols (not deleted) of these patients (sourceIds). */
  draftsBySourceIds(sourceIds: readonly string[]): ProtocolDraft[] {
    if (sourceIds.length === 0) return [];
    const rows = prepareCached(
      this.db,
      `SELECT local_id, draft FROM protocols
       WHERE deleted = 0 AND source_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify([...new Set(sourceIds)])) as { local_id: string }[];
    return rows.map((r) => parseRow(DraftRow, r, 'protocols', `local_id=${r.local_id}`).draft);
  }

  /**
   * A new local protocol with the order of `localId` (its current draft: products, doses,
   * supply, shipping, order type) for another patient, queued for the server as any create.
   * Throws a ZodError when the copy is not a valid protocol (a draft pulled incomplete).
   */
  duplicate(localId: string, customer: ProtocolRequest['customer']): LocalProtocol {
    return runTransaction(this.db, () => {
      const source = this.require(localId);
      if (source.deleted)
        throw new StoreError('invalid-state', 'This protocol was deleted; it cannot be copied.');
      return this.createDraft({ ...source.draft, customer });
    });
  }

  /** Replaces the draft (full replacement, as PUT): the row and the coalesced pending change. */
  updateDraft(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolInput.parse(draft);
    runTransaction(this.db, () => {
      this.writeDraft(localId, d);
    });
    return this.require(localId);
  }

  /**
   * Only the patient's details change (one person's details everywhere, a person moved to a new
   * Patient ID): the customer must be a valid CustomerInput; the rest of the draft stays as it
   * is, complete or not (a copy pulled without a shipping method keeps waiting for one).
   */
  replaceCustomer(localId: string, customer: ProtocolDraft['customer']): LocalProtocol {
    const c = CustomerInput.parse(customer);
    runTransaction(this.db, () => {
      const current = this.require(localId);
      this.writeDraft(localId, ProtocolDraftSchema.parse({ ...current.draft, customer: c }));
    });
    return this.require(localId);
  }

  /** Writes a draft over a protocol not deleted, with its coalesced pending change. */
  private writeDraft(localId: string, d: ProtocolDraft): void {
    const current = this.require(localId);
    if (current.deleted) throw new StoreError('invalid-state', `Protocol ${localId} was deleted.`);
    prepareCached(
      this.db,
      `UPDATE protocols SET customer_name = @customer_name, source_id = @source_id, email = @email,
           search_text = @search_text, sort_name = @sort_name, draft = @draft, rev = rev + 1, local_updated_at = @now,
           sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
         WHERE local_id = @local_id`,
    ).run({ local_id: localId, now: this.clock.now(), ...draftColumns(d) });
    reconcileChange(this.ctx(), localId, true);
  }

  /**
   * Deletes a protocol locally. 'dropped': it never reached the server and is gone with its
   * pending change; 'queued': a delete waits to be sent; 'deferred': a change is in flight and the
   * delete follows when it settles. Deleting a deleted protocol does nothing.
   */
  deleteDraft(localId: string): ChangeEffect {
    return runTransaction(this.db, () => {
      const current = this.require(localId);
      if (current.deleted) return current.change?.op === 'delete' ? 'queued' : 'deferred';
      prepareCached(
        this.db,
        `UPDATE protocols SET deleted = 1, local_updated_at = ?,
           sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
         WHERE local_id = ?`,
      ).run(this.clock.now(), localId);
      return reconcileChange(this.ctx(), localId, true);
    });
  }

  /**
   * Mirror pull: a page of protocols as the server has them, in one transaction. Each one, new:
   * inserted as synced. Known and synced (no pending change): draft, base and server copy
   * refreshed. Known with local changes or a conflict: only the server copy is refreshed; the
   * draft and its base stay, so the push can still see that the server moved.
   */
  upsertManyFromServer(
    protocols: readonly ProtocolRead[],
  ): { localId: string; change: ServerUpsert }[] {
    // One transaction, no savepoint per row: FTS5 flushes its pending index data at each savepoint.
    return runTransaction(this.db, () => protocols.map((p) => pull.upsertOne(this.ctx(), p)));
  }

  /**
   * Mirror pull: the server no longer has this protocol. Synced, or deleted locally too: the row
   * goes ('removed'). Edited locally: a 'deleted-on-server' conflict. A push in flight decides
   * by its own outcome ('in-flight'). 'unknown': no local protocol has this server id.
   */
  markDeletedOnServer(serverId: string): 'removed' | 'conflict' | 'in-flight' | 'unknown' {
    return runTransaction(this.db, () => pull.markDeletedOnServer(this.ctx(), serverId));
  }

  /** See server-changes.ts; each in its own transaction (or the caller's). */
  markConflict(
    localId: string,
    conflict: { kind: ConflictKind; server: ProtocolRead | null },
  ): void {
    runTransaction(this.db, () => server.markConflict(this.ctx(), localId, conflict));
  }

  rebaseOnServer(localId: string, copy: ProtocolRead): ChangeEffect {
    return runTransaction(this.db, () => server.rebaseOnServer(this.ctx(), localId, copy));
  }

  takeServer(localId: string, copy: ProtocolRead): void {
    runTransaction(this.db, () => server.takeServer(this.ctx(), localId, copy));
  }

  detachFromServer(localId: string): ChangeEffect {
    return runTransaction(this.db, () => server.detachFromServer(this.ctx(), localId));
  }

  /** Removes a protocol and its pending change, locally only. */
  forget(localId: string): boolean {
    return runTransaction(this.db, () => forgetProtocol(this.ctx(), localId));
  }

  private ctx(): server.ProtocolContext {
    return { db: this.db, clock: this.clock, jobs: this.jobs };
  }

  private require(localId: string): LocalProtocol {
    const p = this.get(localId);
    if (!p) throw new StoreError('not-found', `No protocol ${localId}.`);
    return p;
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

const DraftRow = z.object({ local_id: z.string(), draft: jsonText(ProtocolDraftSchema) });

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
