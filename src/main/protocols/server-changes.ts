import type { Protocol } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import type { OutboxEffect, OutboxRepo } from '../store/outbox-repo';
import { draftColumns, draftFromProtocol, type ConflictKind } from './protocol-model';
import type { ProtocolsRepo } from './protocols-repo';
import { prepareCached } from '../store/rows';

/**
 * The push side's updates of a protocol and its outbox entry, each in one transaction. They are
 * the primitives conflict resolution is made of:
 * - keep mine: rebaseOnServer(localId, server) (or detachFromServer when the server deleted it);
 * - take theirs: takeServer(localId, server) (or forget when the server deleted it);
 * - keep both: in one db.transaction, protocols.createDraft(mine) then takeServer(localId, server).
 */
export interface ProtocolContext {
  db: Db;
  clock: Clock;
  outbox: OutboxRepo;
  protocols: ProtocolsRepo;
}

/** Makes the row a synced copy of `server`: draft, base and server copy, no conflict, not deleted. */
export function refreshFromServer(db: Db, localId: string, server: Protocol, now: number): void {
  prepareCached(
    db,
    `UPDATE protocols SET server_id = @server_id, server = @server, base_updated_at = @base,
       customer_name = @customer_name, source_id = @source_id, email = @email, search_text = @search_text,
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
 * The server acknowledged the push of entry `seq` (or reconciliation found it applied). Delete:
 * the protocol is removed. Create or update: the row takes the server's id, copy and updatedAt
 * as its base and the entry is done; when the draft changed or the protocol was deleted while
 * the push was in flight, a follow-up update or delete is queued ('queued'), else it is synced
 * ('done'). A mirror row that a pull inserted for the same server protocol meanwhile is dropped.
 * Calling it again for a done entry does nothing.
 */
export function markPushed(
  ctx: ProtocolContext,
  seq: number,
  server: Protocol | null,
): OutboxEffect | 'done' {
  const { db, outbox } = ctx;
  return db.transaction((): OutboxEffect | 'done' => {
    const entry = outbox.get(seq);
    if (!entry) throw new StoreError('not-found', `No outbox entry ${seq}.`);
    if (entry.state === 'done') return 'done';
    const sent = (entry.state === 'pending' && entry.sentAt !== null) || entry.state === 'in_doubt';
    if (!sent)
      throw new StoreError(
        'invalid-state',
        `Outbox entry ${seq} is not being pushed (${entry.state}).`,
      );
    const localId = entry.protocolLocalId;
    if (entry.op === 'delete') {
      ctx.protocols.forget(localId);
      return 'dropped';
    }
    if (!server)
      throw new StoreError('invalid-state', `A pushed ${entry.op} needs the server's protocol.`);
    dropMirrorDuplicate(ctx, localId, server.id);
    const now = ctx.clock.now();
    prepareCached(
      db,
      "UPDATE outbox SET state = 'done', done_at = ?, last_error = NULL WHERE seq = ?",
    ).run(now, seq);
    const row = prepareCached(db, 'SELECT rev, deleted FROM protocols WHERE local_id = ?').get(
      localId,
    ) as { rev: number; deleted: 0 | 1 } | undefined;
    if (!row) throw new StoreError('not-found', `No protocol ${localId}.`);
    if (row.deleted === 0 && row.rev === entry.sentRev) {
      refreshFromServer(db, localId, server, now);
      return 'done';
    }
    prepareCached(
      db,
      `UPDATE protocols SET server_id = ?, server = ?, base_updated_at = ?, conflict = NULL,
         sync_state = 'pending' WHERE local_id = ?`,
    ).run(server.id, JSON.stringify(server), server.updatedAt, localId);
    return outbox.reconcile(localId, false);
  })();
}

/** A conflict found by the push or the pull: shown to the user, the entry blocked until resolved. */
export function markConflict(
  ctx: ProtocolContext,
  localId: string,
  conflict: { kind: ConflictKind; server: Protocol | null },
): void {
  const { db, outbox } = ctx;
  db.transaction(() => {
    const record = { ...conflict, detectedAt: ctx.clock.now() };
    const changed = prepareCached(
      db,
      "UPDATE protocols SET sync_state = 'conflict', conflict = ? WHERE local_id = ?",
    ).run(JSON.stringify(record), localId).changes;
    if (changed === 0) throw new StoreError('not-found', `No protocol ${localId}.`);
    const live = outbox.liveFor(localId);
    if (live) {
      prepareCached(
        db,
        "UPDATE outbox SET state = 'blocked', sent_at = NULL, sent_rev = NULL, last_error = ? WHERE seq = ?",
      ).run(`conflict: ${conflict.kind}`, live.seq);
    }
  })();
}

/**
 * Keep mine: the local draft (or local delete) is pushed again, now based on `server`. The
 * conflict is cleared and the entry is pending with base = server.updatedAt.
 */
export function rebaseOnServer(
  ctx: ProtocolContext,
  localId: string,
  server: Protocol,
): OutboxEffect {
  const { db, outbox } = ctx;
  return db.transaction(() => {
    const live = notInFlight(ctx, localId);
    prepareCached(
      db,
      `UPDATE protocols SET server_id = ?, server = ?, base_updated_at = ?, conflict = NULL,
         sync_state = 'pending' WHERE local_id = ?`,
    ).run(server.id, JSON.stringify(server), server.updatedAt, localId);
    if (live) {
      prepareCached(
        db,
        "UPDATE outbox SET base_updated_at = ?, state = 'pending', last_error = NULL, next_attempt_at = NULL WHERE seq = ?",
      ).run(server.updatedAt, live.seq);
    }
    return outbox.reconcile(localId, true);
  })();
}

/** Take theirs: the row becomes the server's copy, synced; the live entry is done. */
export function takeServer(ctx: ProtocolContext, localId: string, server: Protocol): void {
  const { db } = ctx;
  db.transaction(() => {
    const live = notInFlight(ctx, localId);
    dropMirrorDuplicate(ctx, localId, server.id);
    const now = ctx.clock.now();
    refreshFromServer(db, localId, server, now);
    if (live)
      prepareCached(db, "UPDATE outbox SET state = 'done', done_at = ? WHERE seq = ?").run(
        now,
        live.seq,
      );
  })();
}

/**
 * Keep mine after the server deleted the protocol: the draft becomes a new protocol to create.
 * A protocol also deleted locally is simply removed ('dropped').
 */
export function detachFromServer(ctx: ProtocolContext, localId: string): OutboxEffect {
  const { db, outbox } = ctx;
  return db.transaction(() => {
    const live = notInFlight(ctx, localId);
    const row = prepareCached(db, 'SELECT deleted FROM protocols WHERE local_id = ?').get(
      localId,
    ) as {
      deleted: 0 | 1;
    };
    if (row.deleted === 1) {
      ctx.protocols.forget(localId);
      return 'dropped';
    }
    prepareCached(
      db,
      `UPDATE protocols SET server_id = NULL, server = NULL, base_updated_at = NULL, conflict = NULL,
         sync_state = 'pending' WHERE local_id = ?`,
    ).run(localId);
    if (live) {
      prepareCached(
        db,
        "UPDATE outbox SET op = 'create', base_updated_at = NULL, state = 'pending', last_error = NULL, next_attempt_at = NULL WHERE seq = ?",
      ).run(live.seq);
    }
    return outbox.reconcile(localId, true);
  })();
}

function notInFlight(ctx: ProtocolContext, localId: string) {
  const exists = prepareCached(ctx.db, 'SELECT 1 FROM protocols WHERE local_id = ?').get(localId);
  if (!exists) throw new StoreError('not-found', `No protocol ${localId}.`);
  const live = ctx.outbox.liveFor(localId);
  if (live && (live.sentAt !== null || live.state === 'in_doubt')) {
    throw new StoreError(
      'invalid-state',
      `Protocol ${localId} has a push in flight; settle it first.`,
    );
  }
  return live;
}

/** Another local row holding `serverId` is a mirror copy of the same protocol: dropped if synced. */
function dropMirrorDuplicate(ctx: ProtocolContext, localId: string, serverId: string): void {
  const dup = prepareCached(
    ctx.db,
    'SELECT local_id, sync_state FROM protocols WHERE server_id = ? AND local_id <> ?',
  ).get(serverId, localId) as { local_id: string; sync_state: string } | undefined;
  if (!dup) return;
  if (dup.sync_state !== 'synced' || ctx.outbox.liveFor(dup.local_id) !== null) {
    throw new StoreError(
      'invalid-state',
      `Server protocol ${serverId} is already the protocol ${dup.local_id}, which has local changes.`,
    );
  }
  ctx.protocols.forget(dup.local_id);
}
