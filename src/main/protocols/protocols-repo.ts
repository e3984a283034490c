import { randomUUID } from 'node:crypto';
import { ProtocolRequest, type Protocol } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import type { OutboxEffect, OutboxEntry, OutboxRepo } from '../store/outbox-repo';
import * as pull from './protocol-pull';
import type { ServerUpsert } from './protocol-pull';
import * as push from './server-changes';
import {
  LIVE_OUTBOX_JOIN,
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
import { parseRow, prepareCached } from '../store/rows';

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
 * Local protocols: offline drafting (each write and its outbox entry in one transaction), reads
 * and search, the mirror pull (upsertFromServer, markDeletedOnServer), and the primitives of the
 * push side (markPushed, markConflict, and the updates conflict resolutions are made of).
 */
export class ProtocolsRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: OutboxRepo,
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

  /** The protocols with these local ids, in the order given; unknown ids are left out. */
  getMany(localIds: readonly string[]): LocalProtocol[] {
    return localIds.map((id) => this.get(id)).filter((p): p is LocalProtocol => p !== null);
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
   * A new protocol drafted locally: the row and its outbox create, in one transaction. The draft
   * must be a valid ProtocolRequest (parsed here: a ZodError lists what is wrong); a stored
   * ProtocolDraft may be passed back (keep both).
   */
  createDraft(draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolRequest.parse(draft);
    const localId = randomUUID();
    const now = this.clock.now();
    this.db.transaction(() => {
      prepareCached(
        this.db,
        `INSERT INTO protocols (local_id, customer_name, source_id, email, search_text, draft,
           sync_state, created_at, local_updated_at)
         VALUES (@local_id, @customer_name, @source_id, @email, @search_text, @draft, 'pending', @now, @now)`,
      ).run({ local_id: localId, now, ...draftColumns(d) });
      this.outbox.reconcile(localId, true);
    })();
    return this.require(localId);
  }

  /** Replaces the draft (full replacement, as PUT): the row and the coalesced outbox entry. */
  updateDraft(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const d = ProtocolRequest.parse(draft);
    this.db.transaction(() => {
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
      this.outbox.reconcile(localId, true);
    })();
    return this.require(localId);
  }

  /**
   * Deletes a protocol locally. 'dropped': it never reached the server and is gone with its
   * outbox entry; 'queued': a delete waits in the outbox; 'deferred': a push is in flight and the
   * delete follows when it settles. Deleting a deleted protocol does nothing.
   */
  deleteDraft(localId: string): OutboxEffect {
    return this.db.transaction(() => {
      const current = this.require(localId);
      if (current.deleted) return current.outbox?.op === 'delete' ? 'queued' : 'deferred';
      prepareCached(
        this.db,
        `UPDATE protocols SET deleted = 1, local_updated_at = ?,
           sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
         WHERE local_id = ?`,
      ).run(this.clock.now(), localId);
      return this.outbox.reconcile(localId, true);
    })();
  }

  /**
   * Mirror pull: a protocol as the server has it. New: inserted as synced. Known and synced (no
   * live outbox entry): draft, base and server copy refreshed. Known with local changes or a
   * conflict: only the server copy is refreshed; the draft and its base stay, so the push can
   * still see that the server moved.
   */
  upsertFromServer(protocol: Protocol): { localId: string; change: ServerUpsert } {
    return this.db.transaction(() => pull.upsertOne(this.ctx(), protocol))();
  }

  /** upsertFromServer for a page of protocols, in one transaction. */
  upsertManyFromServer(
    protocols: readonly Protocol[],
  ): { localId: string; change: ServerUpsert }[] {
    // One transaction, no savepoint per row: FTS5 flushes its pending index data at each savepoint.
    return this.db.transaction(() => protocols.map((p) => pull.upsertOne(this.ctx(), p)))();
  }

  /**
   * Mirror pull: the server no longer has this protocol. Synced, or deleted locally too: the row
   * goes ('removed'). Edited locally: a 'deleted-on-server' conflict. A push in flight decides
   * by its own outcome ('in-flight'). 'unknown': no local protocol has this server id.
   */
  markDeletedOnServer(serverId: string): 'removed' | 'conflict' | 'in-flight' | 'unknown' {
    return this.db.transaction(() => pull.markDeletedOnServer(this.ctx(), serverId))();
  }

  /** See protocol-push.ts. */
  markPushed(entry: OutboxEntry | number, server: Protocol | null): OutboxEffect | 'done' {
    return push.markPushed(this.ctx(), typeof entry === 'number' ? entry : entry.seq, server);
  }

  markConflict(localId: string, conflict: { kind: ConflictKind; server: Protocol | null }): void {
    push.markConflict(this.ctx(), localId, conflict);
  }

  rebaseOnServer(localId: string, server: Protocol): OutboxEffect {
    return push.rebaseOnServer(this.ctx(), localId, server);
  }

  takeServer(localId: string, server: Protocol): void {
    push.takeServer(this.ctx(), localId, server);
  }

  detachFromServer(localId: string): OutboxEffect {
    return push.detachFromServer(this.ctx(), localId);
  }

  /** Removes a protocol and its outbox entries, locally only. */
  forget(localId: string): boolean {
    return (
      prepareCached(this.db, 'DELETE FROM protocols WHERE local_id = ?').run(localId).changes === 1
    );
  }

  private ctx(): push.ProtocolContext {
    return { db: this.db, clock: this.clock, outbox: this.outbox, protocols: this };
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
      `SELECT p.seq AS seq, ${SUMMARY_SELECT} FROM protocols p ${LIVE_OUTBOX_JOIN}
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
