import type { ProtocolRead } from '@shared/api';
import { StoreError } from '../db/errors';
import { prepareCached } from '../db/rows';
import {
  forgetProtocol,
  liveChange,
  reconcileChange,
  type ChangeEffect,
  type ChangeQueueContext,
  type ProtocolJob,
  type ProtocolJobData,
} from './change-queue';
import {
  draftColumns,
  draftFromProtocol,
  isUntouchedMirrorCopy,
  readLocalProtocol,
  type ConflictKind,
} from './protocol-model';

/**
 * What the server's answers do to a protocol's row and its pending change (the caller holds the
 * transaction). They are also the primitives conflict resolution is made of:
 * - keep mine: rebaseOnServer(localId, server) (or detachFromServer when the server deleted it);
 * - take theirs: takeServer(localId, server) (or forgetProtocol when the server deleted it);
 * - keep both: protocols.createDraft(mine), then takeServer(localId, server).
 */
export type ProtocolContext = ChangeQueueContext;

/** Makes the row a synced copy of `server`: draft, base and server copy, no conflict, not deleted. */
export function refreshFromServer(
  ctx: ProtocolContext,
  localId: string,
  server: ProtocolRead,
  now: number,
): void {
  prepareCached(
    ctx.db,
    `UPDATE protocols SET server_id = @server_id, server = @server, base_updated_at = @base,
       customer_name = @customer_name, source_id = @source_id, email = @email, search_text = @search_text, sort_name = @sort_name,
       draft = @draft, rev = rev + 1, local_updated_at = @now, sync_state = 'synced', deleted = 0,
       conflict = NULL
     WHERE local_id = @local_id`,
  ).run({
    local_id: localId,
    server_id: server.id,
    server: JSON.stringify(server),
    base: server.updatedAt,
    now,
    ...draftColumns(draftFromProtocol(server)),
  });
}

/**
 * The server applied a change (its job is done). A delete: the protocol is removed. A create or
 * update: the row takes the server's id, copy and updatedAt as its base; when the draft changed
 * or the protocol was deleted while the change was in flight, the next change is queued
 * ('queued'), else the row is synced ('done'). A mirror row that a pull inserted for the same
 * server protocol meanwhile is dropped.
 */
export function markPushed(
  ctx: ProtocolContext,
  change: Pick<ProtocolJobData, 'localId' | 'op' | 'sentRev'>,
  server: ProtocolRead | null,
): ChangeEffect | 'done' {
  const { localId } = change;
  if (change.op === 'delete') {
    forgetProtocol(ctx, localId);
    return 'dropped';
  }
  if (!server)
    throw new StoreError('invalid-state', `A pushed ${change.op} needs the server's copy.`);
  dropMirrorDuplicate(ctx, localId, server.id);
  const row = prepareCached(ctx.db, 'SELECT rev, deleted FROM protocols WHERE local_id = ?').get(
    localId,
  ) as { rev: number; deleted: 0 | 1 } | undefined;
  if (!row) return 'dropped';
  if (row.deleted === 0 && row.rev === change.sentRev) {
    refreshFromServer(ctx, localId, server, ctx.clock.now());
    return 'done';
  }
  prepareCached(
    ctx.db,
    `UPDATE protocols SET server_id = ?, server = ?, base_updated_at = ?, conflict = NULL,
       sync_state = 'pending' WHERE local_id = ?`,
  ).run(server.id, JSON.stringify(server), server.updatedAt, localId);
  return reconcileChange(ctx, localId, false);
}

/**
 * The server refused the change (400/422): it waits for the user, unless the draft changed while
 * it was in flight, which is then sent at once instead, or the protocol was deleted meanwhile: the
 * delete follows (a refused create is simply dropped with the protocol, never having reached the
 * server).
 */
export function markRefused(ctx: ProtocolContext, job: ProtocolJob): void {
  const row = prepareCached(ctx.db, 'SELECT rev, deleted FROM protocols WHERE local_id = ?').get(
    job.data.localId,
  ) as { rev: number; deleted: 0 | 1 } | undefined;
  if (!row) return;
  if (row.deleted === 1) {
    reconcileChange(ctx, job.data.localId, false);
    return;
  }
  if (job.data.sentRev === null || row.rev === job.data.sentRev) return;
  const live = liveChange(ctx, job.data.localId);
  if (live?.state === 'rejected')
    ctx.jobs.settle(live.id, ['rejected'], { to: 'queued', error: live.error });
}

/**
 * A conflict found by the push or the pull: shown to the user, the change stopped (rejected with
 * the conflict) until it is resolved.
 */
export function markConflict(
  ctx: ProtocolContext,
  localId: string,
  conflict: { kind: ConflictKind; server: ProtocolRead | null },
): void {
  const record = { ...conflict, detectedAt: ctx.clock.now() };
  const changed = prepareCached(
    ctx.db,
    "UPDATE protocols SET sync_state = 'conflict', conflict = ? WHERE local_id = ?",
  ).run(JSON.stringify(record), localId).changes;
  if (changed === 0) throw new StoreError('not-found', `No protocol ${localId}.`);
  const live = liveChange(ctx, localId);
  if (live && (live.state === 'queued' || live.state === 'rejected')) {
    ctx.jobs.settle(live.id, [live.state], {
      to: 'rejected',
      error: { kind: 'conflict', conflict: conflict.kind },
    });
  }
}

/**
 * Keep mine: the local draft (or local delete) is pushed again, now based on `server`. The
 * conflict is cleared and the change is queued with base = server.updatedAt.
 */
export function rebaseOnServer(
  ctx: ProtocolContext,
  localId: string,
  server: ProtocolRead,
): ChangeEffect {
  const live = notInFlight(ctx, localId);
  prepareCached(
    ctx.db,
    `UPDATE protocols SET server_id = ?, server = ?, base_updated_at = ?, conflict = NULL,
       sync_state = 'pending' WHERE local_id = ?`,
  ).run(server.id, JSON.stringify(server), server.updatedAt, localId);
  if (live) {
    ctx.jobs.setData(live.id, { ...live.data, baseUpdatedAt: server.updatedAt });
    if (live.state === 'rejected')
      ctx.jobs.settle(live.id, ['rejected'], { to: 'queued', error: null });
  }
  return reconcileChange(ctx, localId, true);
}

/** Take theirs: the row becomes the server's copy, synced; its pending change is dropped. */
export function takeServer(ctx: ProtocolContext, localId: string, server: ProtocolRead): void {
  const live = notInFlight(ctx, localId);
  dropMirrorDuplicate(ctx, localId, server.id);
  refreshFromServer(ctx, localId, server, ctx.clock.now());
  if (live) ctx.jobs.settle(live.id, [live.state], { to: 'done', error: null });
}

/**
 * Keep mine after the server deleted the protocol: the draft becomes a new protocol to create.
 * A protocol also deleted locally is simply removed ('dropped').
 */
export function detachFromServer(ctx: ProtocolContext, localId: string): ChangeEffect {
  const live = notInFlight(ctx, localId);
  const row = prepareCached(ctx.db, 'SELECT deleted FROM protocols WHERE local_id = ?').get(
    localId,
  ) as { deleted: 0 | 1 };
  if (row.deleted === 1) {
    forgetProtocol(ctx, localId);
    return 'dropped';
  }
  prepareCached(
    ctx.db,
    `UPDATE protocols SET server_id = NULL, server = NULL, base_updated_at = NULL, conflict = NULL,
       sync_state = 'pending' WHERE local_id = ?`,
  ).run(localId);
  if (live) {
    ctx.jobs.setData(live.id, { ...live.data, op: 'create', baseUpdatedAt: null });
    if (live.state === 'rejected')
      ctx.jobs.settle(live.id, ['rejected'], { to: 'queued', error: null });
  }
  return reconcileChange(ctx, localId, true);
}

function notInFlight(ctx: ProtocolContext, localId: string): ProtocolJob | null {
  const exists = prepareCached(ctx.db, 'SELECT 1 FROM protocols WHERE local_id = ?').get(localId);
  if (!exists) throw new StoreError('not-found', `No protocol ${localId}.`);
  const live = liveChange(ctx, localId);
  if (live && (live.state === 'sending' || live.state === 'in_doubt')) {
    throw new StoreError(
      'invalid-state',
      `Protocol ${localId} has a change in flight; it must settle first.`,
    );
  }
  return live;
}

/**
 * Another local row holding `serverId`: a copy the mirror pull inserted for the same server
 * protocol while this row's create was on its way is merged away (it holds nothing but the server's
 * copy). A row the user made, or one with local changes, is never deleted: the outcome cannot be
 * written (the job is tried again, then reconciled against the server).
 */
function dropMirrorDuplicate(ctx: ProtocolContext, localId: string, serverId: string): void {
  const dup = readLocalProtocol(ctx.db, 'server_id', serverId);
  if (!dup || dup.localId === localId) return;
  if (!isUntouchedMirrorCopy(dup)) {
    throw new StoreError(
      'invalid-state',
      `Server protocol ${serverId} is already the protocol ${dup.localId}, which was made or changed here.`,
    );
  }
  forgetProtocol(ctx, dup.localId);
}
