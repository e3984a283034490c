import { randomUUID } from 'node:crypto';
import { ProtocolRequest, type Protocol } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import type { JobsRepo } from '../jobs/jobs-repo';
import * as pull from './protocol-pull';
import type { ServerUpsert } from './protocol-pull';
import { forgetProtocol, reconcileChange, type ChangeEffect } from './change-queue';
import * as server from './server-changes';
import {
  LIVE_CHANGE_JOIN,
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
  type ProtocolSyncState,
} from './protocol-model';
import { planFtsSearch, searchSeqs } from './protocol-search';
import { parseRow, prepareCached, runTransaction } from '../store/rows';

export interface ProtocolListQuery {
  /** Parts of the customer's name, sourceId or email; every word must match. */
  search?: string;
  syncStates?: readonly ProtocolSyncState[];
  /** Include protocols deleted locally whose delete is not pushed yet. Default false. */
  includeDeleted?: boolean;
  /** Default 50, at most 500. */
  limit?: number;
  /** nextCursor of the previous page. */
  cursor?: string | null;
}

export interface ProtocolPage {
  items: ProtocolSummary[];
  /** Cursor of the next page, or null when this page is the last. */
  nextCursor: string | null;
}

export type { ServerUpsert };

/**
 * Local protocols: offline drafting (each write and its pending change, a job, in one
 * transaction), reads and search, the mirror pull (upsertManyFromServer, markDeletedOnServer), and the
 * updates conflict resolutions are made of.
 */
export class ProtocolsRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jobs: JobsRepo,
  ) {}

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

  /** A page of protocols, newest first, optionally filtered and searched. */
  list(query: ProtocolListQuery = {}): ProtocolPage {
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? 50), 1), 500);
    const where: string[] = [];
    const params: unknown[] = [];
    if (!query.includeDeleted) where.push('p.deleted = 0');
    if (query.syncStates) {
      where.push(`p.sync_state IN (${query.syncStates.map(() => '?').join(', ') || 'NULL'})`);
      params.push(...query.syncStates);
    }
    const plan = planFtsSearch(this.db, query.search ?? '');
    const seqs = searchSeqs(this.db, plan, {
      where,
      params,
      beforeSeq: parseCursor(query.cursor),
      limit,
    });
    const items = this.summaries(seqs);
    const last = seqs[seqs.length - 1];
    return { items, nextCursor: seqs.length === limit && last !== undefined ? String(last) : null };
  }

  /** The first `limit` protocols matching `text` (see protocol-search.ts), newest first. */
  search(text: string, limit = 50): ProtocolSummary[] {
    return this.list({ search: text, limit }).items;
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
   * must be a valid ProtocolRequest (parsed here: a ZodError lists what is wrong); a stored
   * ProtocolDraft may be passed back (keep both).
   */
  createDraft(draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolRequest.parse(draft);
    const localId = randomUUID();
    const now = this.clock.now();
    runTransaction(this.db, () => {
      prepareCached(
        this.db,
        `INSERT INTO protocols (local_id, customer_name, source_id, email, search_text, draft,
           sync_state, created_at, local_updated_at)
         VALUES (@local_id, @customer_name, @source_id, @email, @search_text, @draft, 'pending', @now, @now)`,
      ).run({ local_id: localId, now, ...draftColumns(d) });
      reconcileChange(this.ctx(), localId, true);
    });
    return this.require(localId);
  }

  /** Replaces the draft (full replacement, as PUT): the row and the coalesced pending change. */
  updateDraft(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolRequest.parse(draft);
    runTransaction(this.db, () => {
      const current = this.require(localId);
      if (current.deleted)
        throw new StoreError('invalid-state', `Protocol ${localId} was deleted.`);
      prepareCached(
        this.db,
        `UPDATE protocols SET customer_name = @customer_name, source_id = @source_id, email = @email,
           search_text = @search_text, draft = @draft, rev = rev + 1, local_updated_at = @now,
           sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
         WHERE local_id = @local_id`,
      ).run({ local_id: localId, now: this.clock.now(), ...draftColumns(d) });
      reconcileChange(this.ctx(), localId, true);
    });
    return this.require(localId);
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
    protocols: readonly Protocol[],
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
  markConflict(localId: string, conflict: { kind: ConflictKind; server: Protocol | null }): void {
    runTransaction(this.db, () => server.markConflict(this.ctx(), localId, conflict));
  }

  rebaseOnServer(localId: string, copy: Protocol): ChangeEffect {
    return runTransaction(this.db, () => server.rebaseOnServer(this.ctx(), localId, copy));
  }

  takeServer(localId: string, copy: Protocol): void {
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

function parseCursor(cursor: string | null | undefined): number | undefined {
  if (cursor === null || cursor === undefined) return undefined;
  if (!/^\d{1,15}$/.test(cursor))
    throw new StoreError('invalid-state', 'Not a protocol list cursor.');
  return Number(cursor);
}
