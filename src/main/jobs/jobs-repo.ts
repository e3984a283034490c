import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { CorruptRowError, StoreError } from '../db/errors';
import { parseRow, prepareCached } from '../db/rows';
import {
  JobRow,
  type JobError,
  type JobKindName,
  type JobState,
  type StoredJob,
} from './job-model';

export interface NewJob {
  kind: JobKindName;
  data: unknown;
  queueKey?: string | null;
  batchId?: string | null;
  batchSeq?: number | null;
  nextAttemptAt?: number | null;
}

/** A job's new state and the fields that go with it (see JobRunner for who sets what). */
export interface JobChange {
  to: JobState;
  error: JobError | null;
  nextAttemptAt?: number | null;
  resultId?: string | null;
}

export type JobCounts = Record<JobState, number>;

/**
 * The lanes jobs of `@kind` are claimed from, with their free places: running batches with a
 * queued job of the kind and fewer than their concurrency in flight (oldest batch first), then the
 * jobs outside batches (batch null), of which at most `@concurrency` are in flight.
 */
const OPEN_LANES = `SELECT lane, free FROM (
    SELECT b.id AS lane, b.created_at AS at, b.concurrency - (SELECT COUNT(*) FROM jobs s
      WHERE s.state = 'sending' AND s.kind = @kind AND s.batch_id = b.id) AS free
    FROM batches b
    WHERE b.state = 'running'
      AND EXISTS (SELECT 1 FROM jobs q WHERE q.state = 'queued' AND q.kind = @kind AND q.batch_id = b.id)
    UNION ALL
    SELECT NULL, NULL, @concurrency - (SELECT COUNT(*) FROM jobs s
      WHERE s.state = 'sending' AND s.kind = @kind AND s.batch_id IS NULL))
  WHERE free > 0 ORDER BY at IS NULL, at`;

/**
 * The next `@free` due jobs of a lane, in id order: queued, due, its batch running, and no
 * earlier live job with the same queue key (a protocol's changes go one at a time, in order).
 */
const DUE_IN_LANE = `SELECT j.id FROM jobs j
  WHERE j.state = 'queued' AND j.kind = @kind AND j.batch_id IS @lane
    AND (@lane IS NULL OR EXISTS (SELECT 1 FROM batches b WHERE b.id = @lane AND b.state = 'running'))
    AND (j.next_attempt_at IS NULL OR j.next_attempt_at <= @now)
    AND (j.queue_key IS NULL OR NOT EXISTS (
      SELECT 1 FROM jobs e WHERE e.queue_key = j.queue_key AND e.id < j.id AND e.state <> 'done'))
  ORDER BY j.id LIMIT @free`;

/**
 * The claim of one job found by DUE_IN_LANE: 'sending', sent_at (and the server's time of it, the
 * first one kept), attempts + 1.
 */
const CLAIM = `UPDATE jobs SET state = 'sending', sent_at = @now, sent_server_at = @server,
    first_sent_server_at = COALESCE(first_sent_server_at, @server), attempts = attempts + 1,
    updated_at = @now
  WHERE id = @id AND state = 'queued' RETURNING *`;

/** The jobs table: every write to the server, from the transaction that asked for it to its end. */
export class JobsRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** A queued job; call it inside the transaction that writes the domain row it belongs to. */
  enqueue(job: NewJob): number {
    const now = this.clock.now();
    return Number(
      prepareCached(
        this.db,
        `INSERT INTO jobs (kind, queue_key, state, data, batch_id, batch_seq, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?)`,
      ).run(
        job.kind,
        job.queueKey ?? null,
        JSON.stringify(job.data),
        job.batchId ?? null,
        job.batchSeq ?? null,
        job.nextAttemptAt ?? null,
        now,
        now,
      ).lastInsertRowid,
    );
  }

  get(id: number): StoredJob | null {
    const row = prepareCached(this.db, 'SELECT * FROM jobs WHERE id = ?').get(id);
    return row ? parseJob(row) : null;
  }

  /** The job of `queueKey` that is not done yet, or null. */
  live(queueKey: string): StoredJob | null {
    const row = prepareCached(
      this.db,
      "SELECT * FROM jobs WHERE queue_key = ? AND state <> 'done'",
    ).get(queueKey);
    return row ? parseJob(row) : null;
  }

  /** The jobs of a batch in batch order. */
  ofBatch(batchId: string): StoredJob[] {
    return prepareCached(this.db, 'SELECT * FROM jobs WHERE batch_id = ? ORDER BY batch_seq')
      .all(batchId)
      .map(parseJob);
  }

  /** The job of a batch at position `seq`, or null. */
  atBatchSeq(batchId: string, seq: number): StoredJob | null {
    const row = prepareCached(
      this.db,
      'SELECT * FROM jobs WHERE batch_id = ? AND batch_seq = ?',
    ).get(batchId, seq);
    return row ? parseJob(row) : null;
  }

  /**
   * Claims the due jobs of `kind` that the free places of every lane allow (see OPEN_LANES), in
   * id order: each is sent at once, so no more are 'sending' than the concurrency allows. Call it
   * inside a transaction: the lanes and the claims must see the same rows.
   */
  claimDue(
    kind: JobKindName,
    now: number,
    concurrency: number,
    serverNow: number | null = null,
  ): StoredJob[] {
    const lanes = prepareCached(this.db, OPEN_LANES).all({ kind, concurrency }) as {
      lane: string | null;
      free: number;
    }[];
    return lanes.flatMap(({ lane, free }) => this.claimInLane(kind, lane, now, free, serverNow));
  }

  /**
   * Claims up to `free` due jobs of one lane (a batch, or null for the jobs outside batches): for
   * the place a job just freed, whose lane is known. Inside a transaction, as claimDue.
   * `serverNow`: the server's time now (null: not known), kept with each claim.
   */
  claimInLane(
    kind: JobKindName,
    lane: string | null,
    now: number,
    free: number,
    serverNow: number | null = null,
  ): StoredJob[] {
    // The read and the claims in one transaction (the caller's), as two plain statements: an
    // UPDATE whose WHERE reads the same table through a subquery costs about twice as much.
    const due = prepareCached(this.db, DUE_IN_LANE).all({ kind, now, lane, free }) as {
      id: number;
    }[];
    const claim = prepareCached(this.db, CLAIM);
    return due.flatMap(({ id }) => {
      const row = claim.get({ now, server: serverNow, id });
      try {
        return [parseJob(row)];
      } catch (error) {
        if (!(error instanceof CorruptRowError)) throw error;
        // A row whose own columns cannot be read is set aside, refused with a readable reason,
        // so that it never holds back the others (its data is kept as it is).
        this.refuseUnreadable(id, now);
        return [];
      }
    });
  }

  /** A job whose row cannot be read: rejected, with its reason (readable) and its data kept. */
  private refuseUnreadable(id: number, now: number): void {
    const error: JobError = { kind: 'local', message: 'Its stored record cannot be read.' };
    prepareCached(
      this.db,
      `UPDATE jobs SET state = 'rejected', error = ?, next_attempt_at = NULL, updated_at = ?
       WHERE id = ?`,
    ).run(JSON.stringify(error), now, id);
  }

  /**
   * Moves a job from one of `from` to the change's state; a job in another state is a StoreError
   * 'invalid-state' (someone else settled it), an unknown one 'not-found'.
   */
  settle(id: number, from: readonly JobState[], change: JobChange): void {
    const changed = prepareCached(
      this.db,
      `UPDATE jobs SET state = @to, error = @error, next_attempt_at = @next, updated_at = @now,
         result_id = COALESCE(@result, result_id)
       WHERE id = @id AND state IN (SELECT value FROM json_each(@from))`,
    ).run({
      id,
      to: change.to,
      error: change.error === null ? null : JSON.stringify(change.error),
      next: change.nextAttemptAt ?? null,
      now: this.clock.now(),
      result: change.resultId ?? null,
      from: JSON.stringify(from),
    }).changes;
    if (changed === 0) {
      const job = this.get(id);
      if (!job) throw new StoreError('not-found', `No job ${id}.`);
      throw new StoreError('invalid-state', `Job ${id} is ${job.state}, not ${from.join(' or ')}.`);
    }
  }

  /**
   * A rejected job queued again by the user's hand, with new data (a batch item frozen anew):
   * due at once, its error cleared. A job in another state is a StoreError 'invalid-state'.
   * Call it inside the transaction that checked what it sends.
   */
  requeueRejected(id: number, data: unknown): void {
    const changed = prepareCached(
      this.db,
      `UPDATE jobs SET state = 'queued', data = ?, error = NULL, next_attempt_at = NULL,
         result_id = NULL, updated_at = ? WHERE id = ? AND state = 'rejected'`,
    ).run(JSON.stringify(data), this.clock.now(), id).changes;
    if (changed === 0) {
      const job = this.get(id);
      if (!job) throw new StoreError('not-found', `No job ${id}.`);
      throw new StoreError('invalid-state', `Job ${id} is ${job.state}, not rejected.`);
    }
  }

  /** Replaces a job's data (the kind's JSON). */
  setData(id: number, data: unknown): void {
    prepareCached(this.db, 'UPDATE jobs SET data = ?, updated_at = ? WHERE id = ?').run(
      JSON.stringify(data),
      this.clock.now(),
      id,
    );
  }

  /**
   * In-doubt jobs of `kind` that became so (or were found so at a start) at or before `since`,
   * oldest first.
   */
  inDoubt(kind: JobKindName, since: number, limit: number): StoredJob[] {
    return prepareCached(
      this.db,
      `SELECT * FROM jobs WHERE state = 'in_doubt' AND kind = ? AND updated_at <= ?
       ORDER BY id LIMIT ?`,
    )
      .all(kind, since, limit)
      .map(parseJob);
  }

  /**
   * When the next queued job of `kind` that waits for its backoff becomes due (after `now`), and
   * the time the oldest in-doubt job became so. A job due already that could not be claimed waits for
   * what frees it (a job settling, a batch continued), which wakes the runner.
   */
  schedule(
    kind: JobKindName,
    now: number,
  ): { nextDue: number | null; oldestInDoubt: number | null } {
    const row = prepareCached(
      this.db,
      `SELECT
         (SELECT MIN(next_attempt_at) FROM jobs WHERE kind = @kind AND state = 'queued'
            AND next_attempt_at IS NOT NULL AND next_attempt_at > @now) AS due,
         (SELECT MIN(updated_at) FROM jobs WHERE state = 'in_doubt' AND kind = @kind) AS doubt`,
    ).get({ kind, now }) as { due: number | null; doubt: number | null };
    return { nextDue: row.due, oldestInDoubt: row.doubt };
  }

  /** Queued jobs of `kind` are due at once (the user asked to sync now). */
  makeDue(kind: JobKindName): void {
    prepareCached(
      this.db,
      "UPDATE jobs SET next_attempt_at = NULL WHERE state = 'queued' AND kind = ? AND next_attempt_at IS NOT NULL",
    ).run(kind);
  }

  /**
   * At start: a job left 'sending' was being sent when the process ended (or its outcome could
   * not be written): its outcome is unknown. Returns how many.
   */
  markOrphansInDoubt(): number {
    return prepareCached(
      this.db,
      "UPDATE jobs SET state = 'in_doubt', updated_at = ? WHERE state = 'sending'",
    ).run(this.clock.now()).changes;
  }

  /**
   * At start: the times of an earlier run are on that run's steady clock, which began where the
   * PC's clock stood then. When the PC's clock was set back since, they lie in the future: a
   * queued job due more than `maxWaitMs` from now is due now, and an in-doubt job's grace counts
   * from now, so that no change of the PC's clock holds a job back. Returns how many moved.
   */
  clampSchedules(now: number, maxWaitMs: number): number {
    return (
      prepareCached(
        this.db,
        `UPDATE jobs SET next_attempt_at = @now
         WHERE state = 'queued' AND next_attempt_at > @now + @max`,
      ).run({ now, max: maxWaitMs }).changes +
      prepareCached(
        this.db,
        "UPDATE jobs SET updated_at = @now WHERE state = 'in_doubt' AND updated_at > @now",
      ).run({ now }).changes
    );
  }

  /** Job counts by state, of a batch or of a kind (of a kind: done ones are not counted). */
  counts(where: { batchId: string } | { kind: JobKindName }): JobCounts {
    const rows = (
      'batchId' in where
        ? prepareCached(
            this.db,
            `SELECT state, COUNT(*) AS n FROM jobs
             WHERE state IN ('queued', 'sending', 'in_doubt', 'done', 'rejected') AND kind = 'order'
               AND batch_id = ? GROUP BY state`,
          ).all(where.batchId)
        : prepareCached(
            this.db,
            `SELECT state, COUNT(*) AS n FROM jobs
             WHERE state IN ('queued', 'sending', 'in_doubt', 'rejected') AND kind = ? GROUP BY state`,
          ).all(where.kind)
    ) as { state: JobState; n: number }[];
    const counts: JobCounts = { queued: 0, sending: 0, in_doubt: 0, done: 0, rejected: 0 };
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  }

  /**
   * Which of these server ids a job made or acted on (its result), with the job's batch: an
   * order one of this desk's jobs made is accounted for.
   */
  owners(kind: JobKindName, resultIds: readonly string[]): Map<string, { batchId: string | null }> {
    const owners = new Map<string, { batchId: string | null }>();
    if (resultIds.length === 0) return owners;
    const rows = prepareCached(
      this.db,
      `SELECT result_id, batch_id FROM jobs
       WHERE kind = ? AND result_id IN (SELECT value FROM json_each(?))`,
    ).all(kind, JSON.stringify(resultIds)) as { result_id: string; batch_id: string | null }[];
    for (const r of rows) owners.set(r.result_id, { batchId: r.batch_id });
    return owners;
  }

  /**
   * Order jobs on their way (being sent, or in doubt: they may have taken effect) for patient
   * `sourceId`.
   */
  ordersOnTheirWay(sourceId: string): StoredJob[] {
    return prepareCached(
      this.db,
      `SELECT * FROM jobs WHERE kind = 'order' AND state IN ('sending', 'in_doubt')
         AND json_extract(data, '$.request.customer.sourceId') = ? ORDER BY id`,
    )
      .all(sourceId)
      .map(parseJob);
  }

  /** How many orders for this patient the server refused (held back as duplicates is not refused). */
  refusedOrdersOf(sourceId: string): number {
    return (
      prepareCached(
        this.db,
        `SELECT COUNT(*) AS n FROM jobs WHERE state = 'rejected' AND kind = 'order'
           AND json_extract(data, '$.request.customer.sourceId') = ?
           AND json_extract(error, '$.kind') IS NOT 'duplicate'`,
      ).get(sourceId) as { n: number }
    ).n;
  }

  /** How many jobs of a batch were rejected with an error of this kind (e.g. held as duplicates). */
  rejectedAs(batchId: string, kind: JobError['kind']): number {
    return (
      prepareCached(
        this.db,
        `SELECT COUNT(*) AS n FROM jobs WHERE batch_id = ? AND state = 'rejected'
           AND json_extract(error, '$.kind') = ?`,
      ).get(batchId, kind) as { n: number }
    ).n;
  }

  /** Removes every job of a queue key (the protocol it belongs to is gone). */
  removeQueue(queueKey: string): void {
    prepareCached(this.db, 'DELETE FROM jobs WHERE queue_key = ?').run(queueKey);
  }

  /** Forgets done jobs outside batches finished before `before` (their rows say nothing more). */
  pruneDone(before: number): number {
    return prepareCached(
      this.db,
      "DELETE FROM jobs WHERE state = 'done' AND batch_id IS NULL AND updated_at < ?",
    ).run(before).changes;
  }

  /**
   * A job whose record was lost (a damaged store recovered) while its domain row says a change
   * is pending: written in doubt, as if `sentAt` it had been sent, so that its kind reads the
   * server (back to that time) before anything is sent again.
   */
  enqueueInDoubt(job: NewJob, sentAt: number, error: JobError): number {
    const now = this.clock.now();
    return Number(
      prepareCached(
        this.db,
        `INSERT INTO jobs (kind, queue_key, state, data, batch_id, batch_seq, sent_at, error, created_at, updated_at)
         VALUES (?, ?, 'in_doubt', ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        job.kind,
        job.queueKey ?? null,
        JSON.stringify(job.data),
        job.batchId ?? null,
        job.batchSeq ?? null,
        sentAt,
        JSON.stringify(error),
        now,
        now,
      ).lastInsertRowid,
    );
  }
}

const parseJob = (row: unknown): StoredJob =>
  parseRow(JobRow, row, 'jobs', `id=${(row as { id: unknown }).id}`);
