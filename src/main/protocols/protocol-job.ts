import { ProtocolRequest, type ProtocolRead } from '@shared/api';
import type { ApiClient } from '@main/api/client';
import { isApiClientError } from '@main/api/errors';
import { ServerClock } from '@main/api/server-clock';
import type { Clock } from '@main/clock';
import { findCreatedProtocol, takenByAnother } from '@main/protocols/find-created';
import { sameContent } from '@main/protocols/protocol-content';
import type { ConflictKind, LocalProtocol } from '@main/protocols/protocol-model';
import * as server from '@main/protocols/server-changes';
import type { ProtocolStore } from './protocol-store';
import { CorruptRowError } from '@main/db/errors';
import type { JobError, Outcome } from '../jobs/job-model';
import type { JobKind } from '../jobs/job-runner';
import { sentWindow } from '../jobs/sent-window';
import { readFailure, writeFailure } from '../jobs/write-failure';
import {
  ProtocolJobData,
  createSendingForPatient,
  reconcileChange,
  type ChangeQueueContext,
  type ProtocolJob,
} from './change-queue';

export interface ProtocolJobsOptions {
  store: ProtocolStore;
  client: Pick<
    ApiClient,
    'createProtocol' | 'getProtocol' | 'replaceProtocol' | 'deleteProtocol' | 'listProtocols'
  >;
  /** The steady clock of schedules and of the jobs' times (sent_at). */
  clock: Clock;
  /** The server's time, from its answers; default: never told (the steady clock's, widely). */
  serverTime?: Pick<ServerClock, 'now' | 'nowIfKnown'>;
  /** Changes of different protocols in flight at once. Default 4. */
  concurrency?: number;
  /** An in-doubt change is reconciled only this long after it was sent. Default 30 s. */
  inDoubtGraceMs?: number | undefined;
}

/**
 * The protocol job kind, part two (the data and the coalescing are change-queue.ts).
 * A protocol's pending change as a job: the draft is read and frozen when the job is claimed;
 * an update or delete reads the server copy first and never overwrites someone else's edit
 * (that is a conflict for the user); a change whose outcome is unknown is settled by reading the
 * server. The API has no conditional request, so an edit landing between that read and the PUT
 * would be overwritten unseen: the copy is read back after each PUT, and a copy that is not what
 * this desk wrote is a conflict here (docs/decisions.md, "Lost updates").
 */
export function protocolJobs(options: ProtocolJobsOptions): JobKind<ProtocolJobData> {
  const { store, client, clock } = options;
  const d: StepDeps = {
    store,
    client,
    clock,
    serverTime: options.serverTime ?? new ServerClock(clock),
    ctx: { db: store.db, clock, jobs: store.jobs },
  };
  return {
    name: 'protocol',
    data: ProtocolJobData,
    concurrency: options.concurrency ?? 4,
    inDoubtGraceMs: options.inDoubtGraceMs ?? 30_000,
    prepare: (job) => freezeDraft(d, job),
    send: (job) => sendChange(d, job),
    failure: (job, error) => followUp(d, job, writeFailure(error)),
    reconcile: (jobs) => reconcileInOrder(d, jobs),
  };
}

/** What every step of the job works with. */
interface StepDeps {
  store: ProtocolStore;
  client: ProtocolJobsOptions['client'];
  clock: Clock;
  serverTime: NonNullable<ProtocolJobsOptions['serverTime']>;
  ctx: ChangeQueueContext;
}

// The outcomes, each with the local write that goes with it.

const pushed = (d: StepDeps, job: ProtocolJob, copy: ProtocolRead | null): Outcome => ({
  to: 'done',
  resultId: copy?.id ?? null,
  write: () => server.markPushed(d.ctx, job.data, copy),
});

const conflict = (
  d: StepDeps,
  job: ProtocolJob,
  kind: ConflictKind,
  copy: ProtocolRead | null,
): Outcome => ({
  to: 'rejected',
  error: { kind: 'conflict', conflict: kind },
  write: () => server.markConflict(d.ctx, job.data.localId, { kind, server: copy }),
});

const sendAgain = (d: StepDeps, job: ProtocolJob, message: string): Outcome => ({
  to: 'queued',
  retry: 'now',
  error: { kind: 'transport', message },
  write: () => reconcileChange(d.ctx, job.data.localId, false),
});

/**
 * A change sent again takes the local writes made while it was in flight (a delete, say); one
 * refused by the server is sent again at once when the draft changed meanwhile.
 */
function followUp(d: StepDeps, job: ProtocolJob, outcome: Outcome): Outcome {
  if (outcome.to === 'queued' && !outcome.write)
    return { ...outcome, write: () => reconcileChange(d.ctx, job.data.localId, false) };
  if (outcome.to === 'rejected' && !outcome.write)
    return { ...outcome, write: () => server.markRefused(d.ctx, job) };
  return outcome;
}

// Step 1, when the job is claimed: the draft is read and frozen as the request.

function freezeDraft(
  d: StepDeps,
  job: ProtocolJob,
): { data: ProtocolJobData } | { outcome: Outcome } {
  let protocol: LocalProtocol | null;
  try {
    protocol = d.store.protocols.get(job.data.localId);
  } catch (error) {
    // A row that cannot be read is never sent; a throw here would hold back every change.
    if (!(error instanceof CorruptRowError)) throw error;
    const message = "The protocol's stored data cannot be read.";
    return { outcome: { to: 'rejected', error: { kind: 'local', message } } };
  }
  if (!protocol) return { outcome: { to: 'done' } };
  if (job.data.op === 'delete') return { data: { ...job.data, sentRev: protocol.rev, sent: null } };
  const parsed = ProtocolRequest.safeParse(protocol.draft);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => i.path.join('.') || 'body').join(', ');
    const error: JobError = { kind: 'local', message: `The protocol is incomplete: ${fields}.` };
    return { outcome: { to: 'rejected', error } };
  }
  return { data: { ...job.data, sentRev: protocol.rev, sent: parsed.data } };
}

// Step 2: the change is sent.

async function sendChange(d: StepDeps, job: ProtocolJob): Promise<Outcome> {
  const { op, sent } = job.data;
  const serverId = d.store.protocols.get(job.data.localId)?.serverId ?? null;
  if (op === 'create') return pushed(d, job, await d.client.createProtocol(sent!));
  if (serverId === null) return followUp(d, job, readFailure(new Error('No server id yet.')));
  return followUp(
    d,
    job,
    await (op === 'update' ? sendUpdate(d, job, sent!, serverId) : sendDelete(d, job, serverId)),
  );
}

/** An update: the server copy is read first, and replaced only when it is the one edited. */
async function sendUpdate(
  d: StepDeps,
  job: ProtocolJob,
  request: ProtocolRequest,
  serverId: string,
): Promise<Outcome> {
  let current: ProtocolRead;
  try {
    current = await d.client.getProtocol(serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) return readFailure(error);
    const known = d.store.protocols.get(job.data.localId)?.server ?? null;
    return conflict(d, job, 'deleted-on-server', known);
  }
  if (current.updatedAt !== job.data.baseUpdatedAt) {
    // Our own earlier PUT whose answer was lost, or someone else's edit.
    return sameContent(request, current)
      ? pushed(d, job, current)
      : conflict(d, job, 'edited-on-server', current);
  }
  let written: ProtocolRead;
  try {
    written = await d.client.replaceProtocol(serverId, request);
  } catch (error) {
    if (isApiClientError(error, 'not-found')) return conflict(d, job, 'deleted-on-server', current);
    throw error;
  }
  return readBack(d, job, request, written);
}

/**
 * After a PUT, the server copy is read again: another desk's PUT that landed between our read
 * and our write, or just after it, leaves a copy that is not what this desk wrote, and this desk
 * shows the conflict (docs/decisions.md, "Lost updates"). A read-back that fails leaves the
 * update in doubt, and reconciliation makes the same comparison later.
 */
async function readBack(
  d: StepDeps,
  job: ProtocolJob,
  request: ProtocolRequest,
  written: ProtocolRead,
): Promise<Outcome> {
  let after: ProtocolRead;
  try {
    after = await d.client.getProtocol(written.id);
  } catch (error) {
    if (isApiClientError(error, 'not-found')) return conflict(d, job, 'deleted-on-server', written);
    const message = 'The update was saved, but the copy on the server could not be read back.';
    return { to: 'in_doubt', error: { kind: 'transport', message } };
  }
  return sameContent(request, after)
    ? pushed(d, job, after)
    : conflict(d, job, 'edited-on-server', after);
}

/** A delete: the server copy is read first, and deleted only when nobody edited it since. */
async function sendDelete(d: StepDeps, job: ProtocolJob, serverId: string): Promise<Outcome> {
  let current: ProtocolRead;
  try {
    current = await d.client.getProtocol(serverId);
  } catch (error) {
    if (isApiClientError(error, 'not-found')) return pushed(d, job, null);
    return readFailure(error);
  }
  if (current.updatedAt !== job.data.baseUpdatedAt)
    return conflict(d, job, 'deleted-locally-edited-on-server', current);
  try {
    await d.client.deleteProtocol(serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) throw error;
  }
  return pushed(d, job, null);
}

// Step 3, for a change whose outcome is unknown: the server is read to settle it.

/**
 * One at a time, oldest first: a server protocol one create is matched with is not another's,
 * even before the runner writes the first outcome.
 */
async function reconcileInOrder(
  d: StepDeps,
  jobs: readonly ProtocolJob[],
): Promise<Map<number, Outcome | null>> {
  const outcomes = new Map<number, Outcome | null>();
  const claimed = new Set<string>();
  for (const job of jobs) {
    let outcome: Outcome | null;
    try {
      outcome = await settle(d, job, claimed);
    } catch {
      break; // the server cannot be read now: the rest stay in doubt too
    }
    outcomes.set(job.id, outcome);
    if (outcome?.to === 'done' && outcome.resultId) claimed.add(outcome.resultId);
  }
  return outcomes;
}

/** Reads the server for one in-doubt change: its outcome, or null while still unknown. */
async function settle(
  d: StepDeps,
  job: ProtocolJob,
  claimed: ReadonlySet<string>,
): Promise<Outcome | null> {
  const protocol = d.store.protocols.get(job.data.localId);
  if (!protocol) return { to: 'done' };
  const draft = ProtocolRequest.safeParse(protocol.draft);
  const sent = job.data.sent ?? (draft.success ? draft.data : null);
  if (job.data.op === 'create') return settleCreate(d, job, protocol, sent, claimed);
  return settleChange(d, job, protocol, sent);
}

/**
 * A create is not settled while another create for the same patient is in flight: that one's
 * answer will say which server protocol it made, and two identical protocols must not take one
 * copy.
 */
async function settleCreate(
  d: StepDeps,
  job: ProtocolJob,
  protocol: LocalProtocol,
  sent: ProtocolRequest | null,
  claimed: ReadonlySet<string>,
): Promise<Outcome | null> {
  if (!sent) return null;
  const sending = () => createSendingForPatient(d.ctx, protocol.localId, sent.customer.sourceId);
  if (sending()) return null;
  const { store, client, serverTime, clock } = d;
  const result = await findCreatedProtocol({
    store,
    client,
    localId: protocol.localId,
    sent,
    ...sentWindow(job, serverTime, clock),
    exclude: claimed,
  });
  // A create of the same patient may have been answered, or sent, during the walk.
  if (sending()) return null;
  if (result.found)
    return takenByAnother(store, result.found.id, protocol.localId)
      ? null
      : pushed(d, job, result.found);
  return result.complete
    ? sendAgain(d, job, 'The create did not reach the server; it is sent again.')
    : null;
}

/** An update or delete: the server copy tells whether it landed, was lost, or met an edit. */
async function settleChange(
  d: StepDeps,
  job: ProtocolJob,
  protocol: LocalProtocol,
  sent: ProtocolRequest | null,
): Promise<Outcome | null> {
  if (!protocol.serverId) return null;
  let current: ProtocolRead;
  try {
    current = await d.client.getProtocol(protocol.serverId);
  } catch (error) {
    if (!isApiClientError(error, 'not-found')) throw error;
    if (job.data.op === 'delete') return pushed(d, job, null);
    return conflict(d, job, 'deleted-on-server', protocol.server);
  }
  if (current.updatedAt === job.data.baseUpdatedAt)
    return sendAgain(d, job, `The ${job.data.op} did not reach the server; it is sent again.`);
  if (job.data.op === 'delete')
    return conflict(d, job, 'deleted-locally-edited-on-server', current);
  const ours =
    (sent !== null && sameContent(sent, current)) || sameContent(protocol.draft, current);
  return ours ? pushed(d, job, current) : conflict(d, job, 'edited-on-server', current);
}
