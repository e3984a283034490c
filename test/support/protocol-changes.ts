import type { Protocol } from '@shared/api';
import type { JobError, JobState, StoredJob } from '@main/jobs/job-model';
import {
  parseChange,
  queueKeyOf,
  reconcileChange,
  type ChangeQueueContext,
  type ProtocolJob,
} from '@main/protocols/change-queue';
import { protocolJobs } from '@main/protocols/protocol-job';
import { markPushed, markRefused, type ProtocolContext } from '@main/protocols/server-changes';
import type { memoryStore } from './store-fixtures';

export type Store = ReturnType<typeof memoryStore>;

export const ctxOf = (store: Store): ChangeQueueContext & ProtocolContext => ({
  db: store.db,
  clock: store.clock,
  jobs: store.jobs,
});

/** Far enough ahead that a change delayed after a local edit (EDIT_SETTLE_MS) is due. */
export const CLAIM_AHEAD_MS = 10_000;

/**
 * The next protocol change due at `at` (default: now, past a local edit's delay), claimed as the
 * job runner claims a freed place: one job, in a transaction. Null when none can be claimed.
 */
export function claimNext(store: Store, at = store.clock.now() + CLAIM_AHEAD_MS): StoredJob | null {
  return store.transaction(() => store.jobs.claimInLane('protocol', null, at, 1)[0] ?? null);
}

/**
 * What the job runner does when it takes the next protocol change: claims it ('sending') and
 * lets the protocol kind prepare it (sentRev and the body sent), in one transaction. The kind's
 * client is never called here.
 */
export function claimChange(store: Store, localId: string): ProtocolJob {
  const kind = protocolJobs({ store, client: {} as never, clock: store.clock });
  return store.transaction(() => {
    const claimed = claimNext(store);
    if (claimed?.queueKey !== queueKeyOf(localId))
      throw new Error(`the next change to send is not ${localId}'s: ${claimed?.queueKey}`);
    const job = parseChange(claimed);
    const prepared = kind.prepare!(job);
    if ('outcome' in prepared) throw new Error(`preparation settled it: ${prepared.outcome.to}`);
    store.jobs.setData(job.id, prepared.data);
    return { ...job, data: prepared.data };
  });
}

/** The server applied the change: the job done and markPushed, in one transaction. */
export function pushed(store: Store, job: ProtocolJob, server: Protocol | null, from?: JobState) {
  return store.transaction(() => {
    store.jobs.settle(job.id, [from ?? 'sending'], {
      to: 'done',
      error: null,
      resultId: server?.id ?? null,
    });
    return markPushed(ctxOf(store), job.data, server);
  });
}

/** The server refused the change: the job rejected and markRefused, in one transaction. */
export function refused(store: Store, job: ProtocolJob, error: JobError): void {
  store.transaction(() => {
    store.jobs.settle(job.id, ['sending'], { to: 'rejected', error });
    markRefused(ctxOf(store), job);
  });
}

/**
 * The change surely did not take effect: queued again (after `nextAttemptAt`, or at once), with
 * the local writes made meanwhile, as the protocol kind's outcomes do.
 */
export function retried(
  store: Store,
  job: ProtocolJob,
  error: JobError,
  nextAttemptAt: number | null = null,
): void {
  store.transaction(() => {
    store.jobs.settle(job.id, ['sending'], { to: 'queued', error, nextAttemptAt });
    reconcileChange(ctxOf(store), job.data.localId, false);
  });
}

/** The outcome of the attempt is unknown. */
export function inDoubt(store: Store, job: ProtocolJob, message = 'socket hang up'): void {
  store.jobs.settle(job.id, ['sending'], {
    to: 'in_doubt',
    error: { kind: 'transport', message },
  });
}

/** The server found a conflict: the job rejected with it and markConflict, in one transaction. */
export function conflicted(
  store: Store,
  job: ProtocolJob,
  kind: 'edited-on-server' | 'deleted-on-server' | 'deleted-locally-edited-on-server',
  server: Protocol | null,
): void {
  store.transaction(() => {
    store.jobs.settle(job.id, ['sending'], {
      to: 'rejected',
      error: { kind: 'conflict', conflict: kind },
    });
    store.protocols.markConflict(job.data.localId, { kind, server });
  });
}

/** Protocol jobs that are not done, as rows. */
export const liveJobs = (store: Store) =>
  store.db
    .prepare(
      `SELECT id, substr(queue_key, 10) AS localId, json_extract(data, '$.op') AS op,
         json_extract(data, '$.baseUpdatedAt') AS baseUpdatedAt, state
       FROM jobs WHERE kind = 'protocol' AND state <> 'done' ORDER BY id`,
    )
    .all();
