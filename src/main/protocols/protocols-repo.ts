import type { ProtocolRead, ProtocolRequest } from '@shared/api';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { runTransaction } from '../db/rows';
import type { JobsRepo } from '../jobs/jobs-repo';
import { forgetProtocol, type ChangeEffect } from './change-queue';
import * as pull from './protocol-pull';
import type { ServerUpsert } from './protocol-pull';
import * as server from './server-changes';
import * as drafts from './protocol-drafts';
import {
  ProtocolListReads,
  type ProtocolListQuery,
  type ProtocolMatchQuery,
  type ProtocolOrder,
  type ProtocolPage,
} from './protocol-list-reads';
import * as reads from './protocol-reads';
import {
  readLocalProtocol,
  type ConflictKind,
  type LocalProtocol,
  type ProtocolDraft,
  type ProtocolOrderSource,
  type ProtocolSummary,
} from './protocol-model';

export type {
  ProtocolListQuery,
  ProtocolListRow,
  ProtocolMatchQuery,
  ProtocolOrder,
  ProtocolPage,
} from './protocol-list-reads';
export type { ServerUpsert };

/**
 * Local protocols: one front for the rest of main over reads (protocol-reads.ts), the list and
 * its search (protocol-list-reads.ts), offline drafting (protocol-drafts.ts: each write and its
 * pending change, a job, in one transaction), the mirror pull (protocol-pull.ts) and the
 * updates conflict resolutions are made of (server-changes.ts).
 */
export class ProtocolsRepo {
  private readonly lists: ProtocolListReads;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jobs: JobsRepo,
  ) {
    this.lists = new ProtocolListReads(db);
  }

  // One protocol, and lookups (protocol-reads.ts).
  get(localId: string): LocalProtocol | null {
    return readLocalProtocol(this.db, 'local_id', localId);
  }
  getByServerId(serverId: string): LocalProtocol | null {
    return readLocalProtocol(this.db, 'server_id', serverId);
  }
  orderSource(localId: string): ProtocolOrderSource | null {
    return reads.orderSource(this.db, localId);
  }
  count(options: { includeDeleted?: boolean } = {}): number {
    return reads.countProtocols(this.db, options);
  }
  serverIds(): string[] {
    return reads.serverIds(this.db);
  }
  serverIdsOf(localIds: readonly string[]): string[] {
    return reads.serverIdsOf(this.db, localIds);
  }
  localIdsOfPatient(sourceId: string): string[] {
    return reads.localIdsOfPatient(this.db, sourceId);
  }
  draftsBySourceIds(sourceIds: readonly string[]): ProtocolDraft[] {
    return reads.draftsBySourceIds(this.db, sourceIds);
  }

  // The list and its search (protocol-list-reads.ts).
  list(query: ProtocolListQuery = {}): ProtocolPage {
    return this.lists.list(query);
  }
  page(query: ProtocolListQuery = {}): Omit<ProtocolPage, 'total'> {
    return this.lists.page(query);
  }
  countMatching(query: ProtocolMatchQuery = {}): number {
    return this.lists.countMatching(query);
  }
  matchingIds(query: ProtocolMatchQuery & ProtocolOrder = {}): string[] {
    return this.lists.matchingIds(query);
  }
  matchingDrafts(query: ProtocolMatchQuery & ProtocolOrder = {}): ProtocolDraft[] {
    return this.lists.matchingDrafts(query);
  }
  search(text: string, limit = 50, newest?: number): ProtocolSummary[] {
    return this.lists.search(text, limit, newest);
  }

  // Drafting (protocol-drafts.ts).
  createDraft(draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    return drafts.createDraft(this.ctx(), draft);
  }
  createDrafts(requests: readonly ProtocolRequest[]): string[] {
    return drafts.createDrafts(this.ctx(), requests);
  }
  duplicate(localId: string, customer: ProtocolRequest['customer']): LocalProtocol {
    return drafts.duplicateDraft(this.ctx(), localId, customer);
  }
  updateDraft(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    return drafts.updateDraft(this.ctx(), localId, draft);
  }
  replaceCustomer(localId: string, customer: ProtocolDraft['customer']): LocalProtocol {
    return drafts.replaceCustomer(this.ctx(), localId, customer);
  }
  deleteDraft(localId: string): ChangeEffect {
    return drafts.deleteDraft(this.ctx(), localId);
  }
  deleteDrafts(localIds: readonly string[]): ChangeEffect[] {
    return drafts.deleteDrafts(this.ctx(), localIds);
  }
  restoreDraft(localId: string, draft: ProtocolDraft): LocalProtocol {
    return drafts.restoreDraft(this.ctx(), localId, draft);
  }
  recreateDraft(draft: ProtocolDraft): LocalProtocol {
    return drafts.recreateDraft(this.ctx(), draft);
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
}
