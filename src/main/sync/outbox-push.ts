import { ProtocolRequest, type Protocol } from '../../shared/api';
import { isApiClientError } from '../api/errors';
import { StoreError, type LocalProtocol, type OutboxEntry } from '../store';
import { settleInDoubt } from './in-doubt-settle';
import { sameContent } from '../protocols/protocol-content';
import {
  notApplied,
  recordConflict,
  settlePushed,
  writeFailed,
  type PushContext,
  type PushOutcome,
  type PushStop,
} from './push-steps';
import { saveSentRequest } from './sent-requests';

export type { PushContext, PushStop } from './push-steps';

export interface PushOptions extends Partial<
  Pick<PushContext, 'skewMs' | 'inDoubtGraceMs' | 'retryBaseMs' | 'retryMaxMs'>
> {
  store: PushContext['store'];
  client: PushContext['client'];
  clock: PushContext['clock'];
  /** Push entries whose backoff has not elapsed (the user asked, or the network came back). */
  ignoreBackoff?: boolean;
  /** Called after each entry settles (to report outbox counts). */
  onEntry?: (entry: OutboxEntry, outcome: PushOutcome) => void;
}

export interface PushReport {
  /** Creates, updates and deletes the server acknowledged. */
  pushed: number;
  /** Pushes whose answer was lost, found applied on the server and adopted. */
  adopted: number;
  conflicts: number;
  /** Refused by the server (400/422): the draft waits for the user. */
  rejected: number;
  /** Left in doubt, to reconcile on a later run. */
  inDoubt: number;
  /** Why the run stopped before the outbox was empty; null when it went through. */
  stopped: PushStop | null;
  error: string | null;
}

export const PUSH_DEFAULTS = {
  skewMs: 5 * 60_000,
  inDoubtGraceMs: 30_000,
  retryBaseMs: 2_000,
  retryMaxMs: 5 * 60_000,
} as const;

export const emptyPushReport = (): PushReport => ({
  pushed: 0,
  adopted: 0,
  conflicts: 0,
  rejected: 0,
  inDoubt: 0,
  stopped: null,
  error: null,
});

/**
 * Pushes the outbox in seq order, one entry at a time (at most one live entry per protocol, so
 * a protocol's changes reach the server in the order they were made). In-doubt entries are
 * reconciled before anything is resent. The run stops at the first failure that says nothing
 * more can be pushed now (offline, 429, 503, unauthorized); that entry keeps its place with a
 * backoff. Conflicts and rejections block only their own protocol.
 */
export async function pushOutbox(options: PushOptions): Promise<PushReport> {
  const ctx: PushContext = { ...PUSH_DEFAULTS, ...definedOnly(options) };
  const report = emptyPushReport();
  const attempted = new Set<number>();
  for (;;) {
    const due = ctx.store.outbox.pending(options.ignoreBackoff ? undefined : ctx.clock.now());
    const entry = due.find((e) => !attempted.has(e.seq));
    if (!entry) break;
    attempted.add(entry.seq);
    const outcome = await pushEntry(ctx, entry);
    options.onEntry?.(entry, outcome);
    if (typeof outcome === 'object') {
      report.stopped = outcome.stop;
      report.error = outcome.error;
      break;
    }
    if (outcome === 'pushed') report.pushed++;
    else if (outcome === 'adopted') report.adopted++;
    else if (outcome === 'conflict') report.conflicts++;
    else if (outcome === 'rejected') report.rejected++;
    else if (outcome === 'in-doubt') report.inDoubt++;
  }
  return report;
}

function definedOnly(options: PushOptions): PushContext {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (v !== undefined) out[k] = v;
  return out as unknown as PushContext;
}

async function pushEntry(ctx: PushContext, entry: OutboxEntry): Promise<PushOutcome> {
  if (entry.state === 'in_doubt') {
    const settled = await settleInDoubt(ctx, entry);
    if (settled !== 'not-applied') return settled;
    const fresh = ctx.store.outbox.get(entry.seq);
    if (!fresh || fresh.state !== 'pending' || fresh.sentAt !== null) return 'skipped';
  }
  const started = begin(ctx, entry.seq);
  if (started === null) return 'skipped';
  if (started === 'rejected') return 'rejected';
  const { entry: sending, protocol, request } = started;
  switch (sending.op) {
    case 'create':
      return pushCreate(ctx, sending, request!);
    case 'update':
      return pushUpdate(ctx, sending, protocol, request!);
    case 'delete':
      return pushDelete(ctx, sending, protocol);
  }
}

type Started = { entry: OutboxEntry; protocol: LocalProtocol; request: ProtocolRequest | null };

/**
 * beginPush and the exact body to send, saved next to the entry, in one transaction. A draft that
 * is not a valid request (cannot happen for drafts written by createDraft/updateDraft) is
 * rejected at once. null: the entry changed meanwhile (coalesced, dropped, blocked).
 */
function begin(ctx: PushContext, seq: number): Started | 'rejected' | null {
  try {
    return ctx.store.transaction((): Started | 'rejected' => {
      const { entry, protocol } = ctx.store.outbox.beginPush(seq);
      if (entry.op === 'delete') return { entry, protocol, request: null };
      const parsed = ProtocolRequest.safeParse(protocol.draft);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((i) => i.path.join('.') || 'body').join(', ');
        ctx.store.outbox.markRejected(seq, `The protocol is incomplete: ${fields}.`);
        return 'rejected';
      }
      saveSentRequest(ctx.store, seq, parsed.data);
      return { entry, protocol, request: parsed.data };
    });
  } catch (error) {
    if (
      error instanceof StoreError &&
      (error.code === 'invalid-state' || error.code === 'not-found')
    )
      return null;
    throw error;
  }
}

async function pushCreate(
  ctx: PushContext,
  entry: OutboxEntry,
  request: ProtocolRequest,
): Promise<PushOutcome> {
  let server: Protocol;
  try {
    server = await ctx.client.createProtocol(request);
  } catch (error) {
    return writeFailed(ctx, entry, error);
  }
  settlePushed(ctx, entry.seq, server);
  return 'pushed';
}

/**
 * Update: read the server copy first. Gone → deleted-on-server conflict. Moved since the base →
 * our own earlier PUT whose answer was lost (same content: adopted) or someone else's edit
 * (edited-on-server conflict; never overwritten). Unchanged → PUT. The API has no conditional
 * request, so an edit landing between the GET and the PUT is overwritten (docs/decisions.md).
 */
async function pushUpdate(
  ctx: PushContext,
  entry: OutboxEntry,
  protocol: LocalProtocol,
  request: ProtocolRequest,
): Promise<PushOutcome> {
  const serverId = protocol.serverId;
  if (serverId === null) return notApplied(ctx, entry, new Error('The protocol has no server id.'));
  let current: Protocol;
  try {
    current = await ctx.client.getProtocol(serverId);
  } catch (error) {
    if (isApiClientError(error, 'not-found'))
      return recordConflict(ctx, entry, 'deleted-on-server', protocol.server);
    return notApplied(ctx, entry, error);
  }
  if (current.updatedAt !== entry.baseUpdatedAt) {
    if (sameContent(request, current)) {
      settlePushed(ctx, entry.seq, current);
      return 'adopted';
    }
    return recordConflict(ctx, entry, 'edited-on-server', current);
  }
  let server: Protocol;
  try {
    server = await ctx.client.replaceProtocol(serverId, request);
  } catch (error) {
    if (isApiClientError(error, 'not-found'))
      return recordConflict(ctx, entry, 'deleted-on-server', current);
    return writeFailed(ctx, entry, error);
  }
  settlePushed(ctx, entry.seq, server);
  return 'pushed';
}

/**
 * Delete: read first. Already gone → done. Edited on the server since the base →
 * deleted-locally-edited-on-server conflict (the server's edit is not thrown away unasked).
 * Else DELETE; a 404 there means it is gone too.
 */
async function pushDelete(
  ctx: PushContext,
  entry: OutboxEntry,
  protocol: LocalProtocol,
): Promise<PushOutcome> {
  const serverId = protocol.serverId;
  if (serverId === null) return notApplied(ctx, entry, new Error('The protocol has no server id.'));
  let current: Protocol;
  try {
    current = await ctx.client.getProtocol(serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) return notApplied(ctx, entry, error);
    settlePushed(ctx, entry.seq, null);
    return 'pushed';
  }
  if (current.updatedAt !== entry.baseUpdatedAt)
    return recordConflict(ctx, entry, 'deleted-locally-edited-on-server', current);
  try {
    await ctx.client.deleteProtocol(serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) return writeFailed(ctx, entry, error);
  }
  settlePushed(ctx, entry.seq, null);
  return 'pushed';
}
