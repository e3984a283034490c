import { ProtocolRequest, type ProtocolRead } from '../../shared/api';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import type { Clock } from '../clock';
import type { JobError, Outcome } from '../jobs/job-model';
import type { JobKind } from '../jobs/job-runner';
import { readFailure, writeFailure } from '../jobs/write-failure';
import type { LocalStore } from '../store';
import { CorruptRowError } from '../store/errors';
import { ProtocolJobData, reconcileChange, type ProtocolJob } from './change-queue';
import { findCreatedProtocol } from './find-created';
import { sameContent } from './protocol-content';
import type { ConflictKind, LocalProtocol } from './protocol-model';
import * as server from './server-changes';

export interface ProtocolJobsOptions {
  store: LocalStore;
  client: Pick<
    ApiClient,
    'createProtocol' | 'getProtocol' | 'replaceProtocol' | 'deleteProtocol' | 'listProtocols'
  >;
  clock: Clock;
  /** Changes of different protocols in flight at once. Default 4. */
  concurrency?: number;
  /** An in-doubt change is reconciled only this long after it was sent. Default 30 s. */
  inDoubtGraceMs?: number | undefined;
  /** How far the server's clock may be behind ours, for matching an in-doubt create. Default 5 min. */
  skewMs?: number;
}

/**
 * A protocol's pending change as a job: the draft is read and frozen when the job is claimed;
 * an update or delete reads the server copy first and never overwrites someone else's edit
 * (that is a conflict for the user); a change whose outcome is unknown is settled by reading the
 * server. The API has no conditional request, so an edit landing between that read and the PUT is
 * overwritten (docs/decisions.md).
 */
export function protocolJobs(options: ProtocolJobsOptions): JobKind<ProtocolJobData> {
  const { store, client } = options;
  const ctx = { db: store.db, clock: options.clock, jobs: store.jobs };

  const pushed = (job: ProtocolJob, copy: ProtocolRead | null): Outcome => ({
    to: 'done',
    resultId: copy?.id ?? null,
    write: () => server.markPushed(ctx, job.data, copy),
  });
  const conflict = (job: ProtocolJob, kind: ConflictKind, copy: ProtocolRead | null): Outcome => ({
    to: 'rejected',
    error: { kind: 'conflict', conflict: kind },
    write: () => server.markConflict(ctx, job.data.localId, { kind, server: copy }),
  });
  const sendAgain = (job: ProtocolJob, message: string): Outcome => ({
    to: 'queued',
    retry: 'now',
    error: { kind: 'transport', message },
    write: () => reconcileChange(ctx, job.data.localId, false),
  });

  /**
   * A change sent again takes the local writes made while it was in flight (a delete, say); one
   * refused by the server is sent again at once when the draft changed meanwhile.
   */
  function followUp(job: ProtocolJob, outcome: Outcome): Outcome {
    if (outcome.to === 'queued' && !outcome.write)
      return { ...outcome, write: () => reconcileChange(ctx, job.data.localId, false) };
    if (outcome.to === 'rejected' && !outcome.write)
      return { ...outcome, write: () => server.markRefused(ctx, job) };
    return outcome;
  }

  async function update(job: ProtocolJob, request: ProtocolRequest, serverId: string) {
    let current: ProtocolRead;
    try {
      current = await client.getProtocol(serverId);
    } catch (error) {
      if (isApiClientError(error, 'not-found'))
        return conflict(
          job,
          'deleted-on-server',
          store.protocols.get(job.data.localId)?.server ?? null,
        );
      return readFailure(error);
    }
    if (current.updatedAt !== job.data.baseUpdatedAt) {
      // Our own earlier PUT whose answer was lost, or someone else's edit.
      return sameContent(request, current)
        ? pushed(job, current)
        : conflict(job, 'edited-on-server', current);
    }
    try {
      return pushed(job, await client.replaceProtocol(serverId, request));
    } catch (error) {
      if (isApiClientError(error, 'not-found')) return conflict(job, 'deleted-on-server', current);
      throw error;
    }
  }

  async function remove(job: ProtocolJob, serverId: string) {
    let current: ProtocolRead;
    try {
      current = await client.getProtocol(serverId);
    } catch (error) {
      if (isApiClientError(error, 'not-found')) return pushed(job, null);
      return readFailure(error);
    }
    if (current.updatedAt !== job.data.baseUpdatedAt)
      return conflict(job, 'deleted-locally-edited-on-server', current);
    try {
      await client.deleteProtocol(serverId);
    } catch (error) {
      if (!isApiClientError(error, 'not-found')) throw error;
    }
    return pushed(job, null);
  }

  /** Reads the server for one in-doubt change: its outcome, or null while still unknown. */
  async function settle(job: ProtocolJob): Promise<Outcome | null> {
    const protocol = store.protocols.get(job.data.localId);
    if (!protocol) return { to: 'done' };
    const draft = ProtocolRequest.safeParse(protocol.draft);
    const sent = job.data.sent ?? (draft.success ? draft.data : null);
    const sentAt = job.sentAt ?? job.createdAt;
    if (job.data.op === 'create') {
      if (!sent) return null;
      const result = await findCreatedProtocol({
        store,
        client,
        localId: protocol.localId,
        sent,
        sentAt,
        skewMs: options.skewMs ?? 5 * 60_000,
      });
      if (result.found) return pushed(job, result.found);
      return result.complete
        ? sendAgain(job, 'The create did not reach the server; it is sent again.')
        : null;
    }
    if (!protocol.serverId) return null;
    let current: ProtocolRead;
    try {
      current = await client.getProtocol(protocol.serverId);
    } catch (error) {
      if (!isApiClientError(error, 'not-found')) throw error;
      if (job.data.op === 'delete') return pushed(job, null);
      return conflict(job, 'deleted-on-server', protocol.server);
    }
    if (current.updatedAt === job.data.baseUpdatedAt)
      return sendAgain(job, `The ${job.data.op} did not reach the server; it is sent again.`);
    if (job.data.op === 'delete') return conflict(job, 'deleted-locally-edited-on-server', current);
    const ours =
      (sent !== null && sameContent(sent, current)) || sameContent(protocol.draft, current);
    return ours ? pushed(job, current) : conflict(job, 'edited-on-server', current);
  }

  return {
    name: 'protocol',
    data: ProtocolJobData,
    concurrency: options.concurrency ?? 4,
    inDoubtGraceMs: options.inDoubtGraceMs ?? 30_000,

    prepare(job) {
      let protocol: LocalProtocol | null;
      try {
        protocol = store.protocols.get(job.data.localId);
      } catch (error) {
        // A row that cannot be read is never sent; a throw here would hold back every change.
        if (!(error instanceof CorruptRowError)) throw error;
        const message = "The protocol's stored data cannot be read.";
        return { outcome: { to: 'rejected', error: { kind: 'local', message } } };
      }
      if (!protocol) return { outcome: { to: 'done' } };
      if (job.data.op === 'delete')
        return { data: { ...job.data, sentRev: protocol.rev, sent: null } };
      const parsed = ProtocolRequest.safeParse(protocol.draft);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((i) => i.path.join('.') || 'body').join(', ');
        const error: JobError = {
          kind: 'local',
          message: `The protocol is incomplete: ${fields}.`,
        };
        return { outcome: { to: 'rejected', error } };
      }
      return { data: { ...job.data, sentRev: protocol.rev, sent: parsed.data } };
    },

    async send(job) {
      const { op, sent } = job.data;
      const serverId = store.protocols.get(job.data.localId)?.serverId ?? null;
      if (op === 'create') return pushed(job, await client.createProtocol(sent!));
      if (serverId === null) return followUp(job, readFailure(new Error('No server id yet.')));
      return followUp(
        job,
        await (op === 'update' ? update(job, sent!, serverId) : remove(job, serverId)),
      );
    },

    failure: (job, error) => followUp(job, writeFailure(error)),

    async reconcile(jobs) {
      const outcomes = new Map<number, Outcome | null>();
      for (const job of jobs) {
        try {
          outcomes.set(job.id, await settle(job));
        } catch {
          break; // the server cannot be read now: the rest stay in doubt too
        }
      }
      return outcomes;
    },
  };
}
