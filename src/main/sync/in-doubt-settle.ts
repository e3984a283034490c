import { ProtocolRequest, type Protocol } from '../../shared/api';
import { isApiClientError } from '../api/errors';
import type { OutboxEntry } from '../store';
import { findCreatedProtocol } from './in-doubt-create';
import { sameContent } from '../protocols/protocol-content';
import {
  readFailed,
  recordConflict,
  settlePushed,
  type PushContext,
  type PushOutcome,
} from './push-steps';
import { clearSentRequest, sentRequest } from './sent-requests';

/** Settling found that the push did not happen: the entry is pending again, to be sent now. */
export type Settled = PushOutcome | 'not-applied';

/**
 * Reconciles an in-doubt entry by reading the server, before anything is resent:
 * - create: the protocol it may have made (findCreatedProtocol) is adopted; none → resend;
 * - update: the server copy is read; unchanged since the base → resend; our content → adopted;
 *   other content → edited-on-server conflict; gone → deleted-on-server conflict;
 * - delete: gone → done; unchanged → resend; changed → deleted-locally-edited-on-server.
 * Entries sent less than inDoubtGraceMs ago wait (the server may still be working on them).
 */
export async function settleInDoubt(ctx: PushContext, entry: OutboxEntry): Promise<Settled> {
  const sentAt = entry.sentAt ?? entry.createdAt;
  if (ctx.clock.now() < sentAt + ctx.inDoubtGraceMs) return 'in-doubt';
  const protocol = ctx.store.protocols.get(entry.protocolLocalId);
  if (!protocol) return 'skipped';
  const draft = ProtocolRequest.safeParse(protocol.draft);
  const sent = sentRequest(ctx.store, entry.seq) ?? (draft.success ? draft.data : null);

  if (entry.op === 'create') {
    if (!sent) return 'in-doubt';
    let result;
    try {
      result = await findCreatedProtocol({
        store: ctx.store,
        client: ctx.client,
        localId: protocol.localId,
        sent,
        sentAt,
        skewMs: ctx.skewMs,
      });
    } catch (error) {
      return readFailed(error);
    }
    if (result.found) {
      settlePushed(ctx, entry.seq, result.found);
      return 'adopted';
    }
    if (!result.complete) return 'in-doubt';
    return resend(ctx, entry, 'The create did not reach the server; it is sent again.');
  }

  if (!protocol.serverId) return 'in-doubt';
  let current: Protocol;
  try {
    current = await ctx.client.getProtocol(protocol.serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) return readFailed(error);
    if (entry.op === 'delete') {
      settlePushed(ctx, entry.seq, null);
      return 'adopted';
    }
    return recordConflict(ctx, entry, 'deleted-on-server', protocol.server);
  }
  if (current.updatedAt === entry.baseUpdatedAt) {
    return resend(ctx, entry, `The ${entry.op} did not reach the server; it is sent again.`);
  }
  if (entry.op === 'delete') {
    return recordConflict(ctx, entry, 'deleted-locally-edited-on-server', current);
  }
  const ours =
    (sent !== null && sameContent(sent, current)) || sameContent(protocol.draft, current);
  if (ours) {
    settlePushed(ctx, entry.seq, current);
    return 'adopted';
  }
  return recordConflict(ctx, entry, 'edited-on-server', current);
}

function resend(ctx: PushContext, entry: OutboxEntry, why: string): Settled {
  ctx.store.transaction(() => {
    ctx.store.outbox.markRetry(entry.seq, why, null);
    clearSentRequest(ctx.store, entry.seq);
  });
  return 'not-applied';
}
