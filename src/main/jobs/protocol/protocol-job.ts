import { ProtocolRequest, type ProtocolRead } from '@shared/api';
import type { ApiClient } from '@main/api/client';
import { isApiClientError } from '@main/api/errors';
import { ServerClock } from '@main/api/server-clock';
import type { Clock } from '@main/clock';
import { findCreatedProtocol, takenByAnother } from '@main/protocols/find-created';
import { sameContent } from '@main/protocols/protocol-content';
import type { ConflictKind, LocalProtocol } from '@main/protocols/protocol-model';
import * as server from '@main/protocols/server-changes';
import type { LocalStore } from '@main/stores';
import { CorruptRowError } from '@main/store/errors';
import type { JobError, Outcome } from '../job-model';
import type { JobKind } from '../job-runner';
import { sentWindow } from '../sent-window';
import { readFailure, writeFailure } from '../write-failure';
import {
  ProtocolJobData,
  createSendingForPatient,
  reconcileChange,
  type ProtocolJob,
} from './change-queue';

export interface ProtocolJobsOptions {
  store: LocalStore;
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
  const serverTime = options.serverTime ?? new ServerClock(clock);
  const ctx = { db: store.db, clock, jobs: store.jobs };

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
    let written: ProtocolRead;
    try {
      written = await client.replaceProtocol(serverId, request);
    } catch (error) {
      if (isApiClientError(error, 'not-found')) return conflict(job, 'deleted-on-server', current);
      throw error;
    }
    return readBack(job, request, written);
  }

  /**
   * After a PUT, the server copy is read again: another desk's PUT that landed between our read
   * and our write, or just after it, leaves a copy that is not what this desk wrote, and this desk
   * shows the conflict (docs/decisions.md, "Lost updates"). A read-back that fails leaves the
   * update in doubt, and reconciliation makes the same comparison later.
   */
  async function readBack(
    job: ProtocolJob,
    request: ProtocolRequest,
    written: ProtocolRead,
  ): Promise<Outcome> {
    let after: ProtocolRead;
    try {
      after = await client.getProtocol(written.id);
    } catch (error) {
      if (isApiClientError(error, 'not-found')) return conflict(job, 'deleted-on-server', written);
      return {
        to: 'in_doubt',
        error: {
          kind: 'transport',
          message: 'The update was saved, but the copy on the server could not be read back.',
        },
      };
    }
    return sameContent(request, after)
      ? pushed(job, after)
      : conflict(job, 'edited-on-server', after);
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

  /**
   * Reads the server for one in-doubt change: its outcome, or null while still unknown. A create
   * is not settled while another create for the same patient is in flight: that one's answer
   * will say which server protocol it made, and two identical protocols must not take one copy.
   */
  async function settle(job: ProtocolJob, claimed: ReadonlySet<string>): Promise<Outcome | null> {
    const protocol = store.protocols.get(job.data.localId);
    if (!protocol) return { to: 'done' };
    const draft = ProtocolRequest.safeParse(protocol.draft);
    const sent = job.data.sent ?? (draft.success ? draft.data : null);
    if (job.data.op === 'create') {
      if (!sent || createSendingForPatient(ctx, protocol.localId, sent.customer.sourceId))
        return null;
      const result = await findCreatedProtocol({
        store,
        client,
        localId: protocol.localId,
        sent,
        ...sentWindow(job, serverTime, clock),
        exclude: claimed,
      });
      // A create of the same patient may have been answered, or sent, during the walk.
      if (createSendingForPatient(ctx, protocol.localId, sent.customer.sourceId)) return null;
      if (result.found)
        return takenByAnother(store, result.found.id, protocol.localId)
          ? null
          : pushed(job, result.found);
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
      // One at a time, oldest first: a server protocol one create is matched with is not
      // another's, even before the runner writes the first outcome.
      const outcomes = new Map<number, Outcome | null>();
      const claimed = new Set<string>();
      for (const job of jobs) {
        let outcome: Outcome | null;
        try {
          outcome = await settle(job, claimed);
        } catch {
          break; // the server cannot be read now: the rest stay in doubt too
        }
        outcomes.set(job.id, outcome);
        if (outcome?.to === 'done' && outcome.resultId) claimed.add(outcome.resultId);
      }
      return outcomes;
    },
  };
}
