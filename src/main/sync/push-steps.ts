import type { Protocol } from '../../shared/api';
import type { ApiClient } from '../api/client';
import { isApiClientError, isOutcomeUnknown } from '../api/errors';
import type { Clock } from '../clock';
import type { ConflictKind, LocalStore, OutboxEntry } from '../store';
import { clearSentRequest } from './sent-requests';

/** What the push needs; see pushOutbox. */
export interface PushContext {
  store: LocalStore;
  client: Pick<
    ApiClient,
    'createProtocol' | 'getProtocol' | 'replaceProtocol' | 'deleteProtocol' | 'listProtocols'
  >;
  clock: Clock;
  /** How far the server's clock may be behind ours, for matching an in-doubt create. */
  skewMs: number;
  /** An in-doubt push is reconciled only this long after it was sent (the server may be slow). */
  inDoubtGraceMs: number;
  /** Backoff of an entry that could not be pushed: base doubling per attempt, up to max. */
  retryBaseMs: number;
  retryMaxMs: number;
}

/** Why a push run stopped early: nothing more can be pushed now. */
export type PushStop = 'offline' | 'rate-limited' | 'unavailable' | 'unauthorized' | 'error';

/** What happened to one entry. */
export type PushOutcome =
  | 'pushed'
  | 'adopted'
  | 'conflict'
  | 'rejected'
  | 'in-doubt'
  | 'skipped'
  | { stop: PushStop; error: string };

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/** The server acknowledged the entry (or reconciliation found it applied). */
export function settlePushed(ctx: PushContext, seq: number, server: Protocol | null): void {
  ctx.store.transaction(() => {
    ctx.store.protocols.markPushed(seq, server);
    clearSentRequest(ctx.store, seq);
  });
}

/** A conflict: recorded with the server copy, the entry blocked until the user resolves it. */
export function recordConflict(
  ctx: PushContext,
  entry: OutboxEntry,
  kind: ConflictKind,
  server: Protocol | null,
): PushOutcome {
  ctx.store.transaction(() => {
    ctx.store.protocols.markConflict(entry.protocolLocalId, { kind, server });
    clearSentRequest(ctx.store, entry.seq);
  });
  return 'conflict';
}

function stopKind(error: unknown): PushStop {
  if (isApiClientError(error, 'network') || isApiClientError(error, 'timeout')) return 'offline';
  if (isApiClientError(error, 'rate-limited')) return 'rate-limited';
  if (isApiClientError(error, 'unavailable')) return 'unavailable';
  if (isApiClientError(error, 'unauthorized')) return 'unauthorized';
  return 'error';
}

/** When an entry that failed `attempts` times may be tried again (honouring Retry-After). */
export function retryAt(ctx: PushContext, attempts: number, error: unknown): number {
  const exp = Math.min(ctx.retryMaxMs, ctx.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  const retryAfter = isApiClientError(error) ? (error.retryAfterMs ?? 0) : 0;
  return ctx.clock.now() + Math.max(exp, retryAfter);
}

/**
 * The push did not take effect (a read before it failed, or the server refused it before acting):
 * back to pending with a backoff, and the run stops.
 */
export function notApplied(ctx: PushContext, entry: OutboxEntry, error: unknown): PushOutcome {
  const message = messageOf(error);
  ctx.store.transaction(() => {
    ctx.store.outbox.markRetry(entry.seq, message, retryAt(ctx, entry.attempts, error));
    clearSentRequest(ctx.store, entry.seq);
  });
  return { stop: stopKind(error), error: message };
}

/**
 * A failed write (create, PUT or DELETE): 400/422 → rejected (the user must fix the draft);
 * outcome unknown → in doubt (reconciled by reading the server before anything is resent);
 * otherwise it surely did not happen → retry later.
 */
export function writeFailed(ctx: PushContext, entry: OutboxEntry, error: unknown): PushOutcome {
  if (isApiClientError(error, 'validation') || isApiClientError(error, 'bad-request')) {
    ctx.store.transaction(() => {
      ctx.store.outbox.markRejected(entry.seq, messageOf(error));
      clearSentRequest(ctx.store, entry.seq);
    });
    return 'rejected';
  }
  if (isOutcomeUnknown(error)) {
    ctx.store.outbox.markInDoubt(entry.seq, messageOf(error));
    return 'in-doubt';
  }
  return notApplied(ctx, entry, error);
}

/** A read that failed while reconciling: the entry stays as it is; the run stops. */
export function readFailed(error: unknown): PushOutcome {
  return { stop: stopKind(error), error: messageOf(error) };
}
