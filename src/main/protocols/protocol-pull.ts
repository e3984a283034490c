import { randomUUID } from 'node:crypto';
import type { ProtocolRead } from '@shared/api';
import { draftColumns, draftFromProtocol, readLocalProtocol } from './protocol-model';
import { forgetProtocol, liveChange } from './change-queue';
import { markConflict, refreshFromServer, type ProtocolContext } from './server-changes';
import { prepareCached } from '../db/rows';

/** What the mirror pull did to a local protocol. */
export type ServerUpsert = 'inserted' | 'refreshed' | 'server-updated' | 'unchanged';

/**
 * Mirror pull: a protocol as the server has it (see ProtocolsRepo.upsertManyFromServer). The caller
 * holds the transaction, so a page of protocols is one transaction with no savepoint per row.
 */
export function upsertOne(
  ctx: ProtocolContext,
  protocol: ProtocolRead,
): { localId: string; change: ServerUpsert } {
  const { db, clock } = ctx;
  const row = prepareCached(
    db,
    'SELECT local_id, sync_state, base_updated_at FROM protocols WHERE server_id = ?',
  ).get(protocol.id) as
    { local_id: string; sync_state: string; base_updated_at: string | null } | undefined;
  const now = clock.now();
  if (!row) {
    const localId = randomUUID();
    prepareCached(
      db,
      `INSERT INTO protocols (local_id, server_id, customer_name, source_id, email, search_text, sort_name, draft,
           server, base_updated_at, sync_state, origin, created_at, local_updated_at)
         VALUES (@local_id, @server_id, @customer_name, @source_id, @email, @search_text, @sort_name, @draft,
           @server, @base, 'synced', 'server', @now, @now)`,
    ).run({
      local_id: localId,
      server_id: protocol.id,
      server: JSON.stringify(protocol),
      base: protocol.updatedAt,
      now,
      ...draftColumns(draftFromProtocol(protocol)),
    });
    return { localId, change: 'inserted' as const };
  }
  const synced = row.sync_state === 'synced' && liveChange(ctx, row.local_id) === null;
  if (synced && row.base_updated_at === protocol.updatedAt)
    return { localId: row.local_id, change: 'unchanged' as const };
  if (synced) {
    refreshFromServer(ctx, row.local_id, protocol, now);
    return { localId: row.local_id, change: 'refreshed' as const };
  }
  prepareCached(db, 'UPDATE protocols SET server = ? WHERE local_id = ?').run(
    JSON.stringify(protocol),
    row.local_id,
  );
  return { localId: row.local_id, change: 'server-updated' as const };
}

/** Mirror pull: the server no longer has `serverId` (see ProtocolsRepo.markDeletedOnServer). */
export function markDeletedOnServer(
  ctx: ProtocolContext,
  serverId: string,
): 'removed' | 'conflict' | 'in-flight' | 'unknown' {
  const row = readLocalProtocol(ctx.db, 'server_id', serverId);
  if (!row) return 'unknown';
  const live = liveChange(ctx, row.localId);
  if (live && (live.state === 'sending' || live.state === 'in_doubt')) return 'in-flight';
  if (!live || live.data.op === 'delete' || row.deleted) {
    forgetProtocol(ctx, row.localId);
    return 'removed';
  }
  markConflict(ctx, row.localId, { kind: 'deleted-on-server', server: row.server });
  return 'conflict';
}
