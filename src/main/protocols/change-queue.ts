import { z } from 'zod';
import { ProtocolRequest } from '@shared/api';
import type { Clock } from '@main/clock';
import type { Db } from '@main/db/db';
import { parseRow, prepareCached } from '@main/db/rows';
import type { Job, StoredJob } from '../jobs/job-model';
import type { JobsRepo } from '../jobs/jobs-repo';

/*
 * The protocol job kind, part one: a protocol's pending change is its job. Here are the job's
 * data, how a local write is coalesced into the protocol's live job, and every statement on the
 * jobs table that concerns protocols (the protocols' own queries take theirs as SQL fragments
 * from here). How the job is sent and reconciled is protocol-job.ts.
 */

export const ProtocolChangeOp = z.enum(['create', 'update', 'delete']);
export type ProtocolChangeOp = z.infer<typeof ProtocolChangeOp>;

/** The data of a protocol job: one pending change of a protocol, pushed by its job. */
export const ProtocolJobData = z.object({
  localId: z.string(),
  op: ProtocolChangeOp,
  /** Server updatedAt the change is based on; null for a create. */
  baseUpdatedAt: z.string().nullable(),
  /** protocols.rev of the draft the attempt in flight carries (set when claimed). */
  sentRev: z.int().nullable(),
  /**
   * The exact body of the attempt in flight: the draft may change meanwhile, so only this tells
   * what the server may have received (reconciliation compares the server with it).
   */
  sent: ProtocolRequest.nullable(),
});
export type ProtocolJobData = z.infer<typeof ProtocolJobData>;
export type ProtocolJob = Job<ProtocolJobData>;

/** What a local write did to the protocol's pending change. */
export type ChangeEffect = 'queued' | 'dropped' | 'deferred';

/** A local edit is sent this long after the last one, so that a burst of edits is one request. */
export const EDIT_SETTLE_MS = 500;

export const queueKeyOf = (localId: string): string => `protocol:${localId}`;

/*
 * SQL fragments for the protocols' own queries (protocol-model.ts, protocols-repo.ts), on
 * protocols aliased p: they join or test the protocol's job by its queue key (queueKeyOf), and
 * live here so that every statement on the jobs table stays in jobs/.
 */

/** Joins protocols p with its live job j: its change that is not done yet (at most one). */
export const LIVE_CHANGE_JOIN = `LEFT JOIN jobs j ON j.queue_key = 'protocol:' || p.local_id AND j.state <> 'done'`;

/** The columns of LIVE_CHANGE_JOIN's job j that a protocol is read with (j_*: all null without one). */
export const LIVE_CHANGE_COLUMNS = `j.id AS j_id, json_extract(j.data, '$.op') AS j_op, j.state AS j_state, j.attempts AS j_attempts,
  j.error AS j_error`;

/** A condition on protocols p: the protocol's pending change (its live job) is in doubt. */
export const CHANGE_IN_DOUBT = `EXISTS (SELECT 1 FROM jobs d WHERE d.queue_key = 'protocol:' || p.local_id
  AND d.state <> 'done' AND d.state = 'in_doubt')`;

export interface ChangeQueueContext {
  db: Db;
  clock: Clock;
  jobs: JobsRepo;
}

/** The protocol's job that is not done yet, with its data, or null. */
export function liveChange(ctx: ChangeQueueContext, localId: string): ProtocolJob | null {
  const job = ctx.jobs.live(queueKeyOf(localId));
  return job ? parseChange(job) : null;
}

export const parseChange = (job: StoredJob): ProtocolJob => ({
  ...job,
  data: parseRow(ProtocolJobData, job.data, 'jobs', `id=${job.id}`),
});

/**
 * Brings a protocol's pending change in line with its row after a write (the caller holds the
 * transaction). An open change (queued, or rejected by the server) takes the write: edits
 * coalesce into one create or update, a delete after a create drops both, a user's edit sends a
 * rejected change again. A job in flight, in doubt or stopped by a conflict is left alone
 * ('deferred'). Each case: docs/decisions.md, "Coalescing protocol changes".
 */
export function reconcileChange(
  ctx: ChangeQueueContext,
  localId: string,
  userEdit: boolean,
): ChangeEffect {
  const row = prepareCached(
    ctx.db,
    'SELECT server_id, deleted, base_updated_at, sync_state FROM protocols WHERE local_id = ?',
  ).get(localId) as
    | {
        server_id: string | null;
        deleted: 0 | 1;
        base_updated_at: string | null;
        sync_state: string;
      }
    | undefined;
  if (!row) return 'dropped';
  const live = liveChange(ctx, localId);
  const open =
    live === null ||
    live.state === 'queued' ||
    (live.state === 'rejected' && row.sync_state !== 'conflict');
  if (!open) return 'deferred';
  if (row.deleted === 1 && row.server_id === null) {
    forgetProtocol(ctx, localId);
    return 'dropped';
  }
  const op: ProtocolChangeOp =
    row.deleted === 1 ? 'delete' : row.server_id !== null ? 'update' : 'create';
  const at = userEdit ? ctx.clock.now() + EDIT_SETTLE_MS : null;
  if (live === null) {
    ctx.jobs.enqueue({
      kind: 'protocol',
      queueKey: queueKeyOf(localId),
      data: {
        localId,
        op,
        baseUpdatedAt: op === 'create' ? null : row.base_updated_at,
        sentRev: null,
        sent: null,
      } satisfies ProtocolJobData,
      nextAttemptAt: at,
    });
    return 'queued';
  }
  if (op !== live.data.op) ctx.jobs.setData(live.id, { ...live.data, op });
  if (live.state === 'rejected' && (userEdit || op !== live.data.op)) {
    ctx.jobs.settle(live.id, ['rejected'], { to: 'queued', error: null, nextAttemptAt: at });
  } else if (live.state === 'queued' && at !== null) {
    ctx.jobs.settle(live.id, ['queued'], { to: 'queued', error: live.error, nextAttemptAt: at });
  }
  return 'queued';
}

/** Removes a protocol and its jobs, locally only. */
export function forgetProtocol(ctx: ChangeQueueContext, localId: string): boolean {
  ctx.jobs.removeQueue(queueKeyOf(localId));
  return (
    prepareCached(ctx.db, 'DELETE FROM protocols WHERE local_id = ?').run(localId).changes === 1
  );
}

/**
 * Protocol creates in flight, in doubt, or sent before and waiting to go again (reconciliation
 * found nothing yet): until they settle, no server copy is taken for a new protocol.
 */
export function createsInFlight(ctx: ChangeQueueContext): number {
  return (
    prepareCached(
      ctx.db,
      `SELECT COUNT(*) AS n FROM jobs WHERE kind = 'protocol'
         AND (state IN ('sending', 'in_doubt') OR (state = 'queued' AND attempts > 0))
         AND json_extract(data, '$.op') = 'create'`,
    ).get() as { n: number }
  ).n;
}

/**
 * Whether a create of another protocol for patient `sourceId` is being sent right now: its answer
 * will tell which server protocol it made, so an in-doubt create of the same patient waits for it
 * rather than perhaps taking that protocol for its own.
 */
export function createSendingForPatient(
  ctx: ChangeQueueContext,
  localId: string,
  sourceId: string,
): boolean {
  return (
    prepareCached(
      ctx.db,
      `SELECT 1 FROM jobs j JOIN protocols p ON j.queue_key = 'protocol:' || p.local_id
       WHERE j.kind = 'protocol' AND j.state = 'sending' AND json_extract(j.data, '$.op') = 'create'
         AND p.source_id = ? AND p.local_id <> ? LIMIT 1`,
    ).get(sourceId, localId) !== undefined
  );
}

/**
 * After a damaged store was recovered: every protocol whose row says a change is pending but
 * whose job was lost with the damaged pages gets its job back, in doubt (the change may have
 * reached the server before the damage), as if sent when the protocol was created, so that
 * reconciliation looks that far back before anything is sent again. Returns how many.
 */
export function restoreLostChanges(ctx: ChangeQueueContext): number {
  const rows = prepareCached(
    ctx.db,
    `SELECT local_id, server_id, deleted, base_updated_at, created_at FROM protocols
     WHERE sync_state = 'pending'`,
  ).all() as {
    local_id: string;
    server_id: string | null;
    deleted: 0 | 1;
    base_updated_at: string | null;
    created_at: number;
  }[];
  let restored = 0;
  for (const row of rows) {
    if (ctx.jobs.live(queueKeyOf(row.local_id))) continue;
    // Without a server id the lost change was a create (perhaps deleted here meanwhile: once the
    // create is settled, the delete follows, or the row goes if the create never arrived).
    const op: ProtocolChangeOp =
      row.server_id === null ? 'create' : row.deleted === 1 ? 'delete' : 'update';
    ctx.jobs.enqueueInDoubt(
      {
        kind: 'protocol',
        queueKey: queueKeyOf(row.local_id),
        data: {
          localId: row.local_id,
          op,
          baseUpdatedAt: op === 'create' ? null : row.base_updated_at,
          sentRev: null,
          sent: null,
        } satisfies ProtocolJobData,
      },
      row.created_at,
      {
        kind: 'transport',
        message:
          'Its record was lost with a damaged database: the server is read before it is sent again.',
      },
    );
    restored++;
  }
  return restored;
}
