import type { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { parseRow, runTransaction } from '../db/rows';
import { storeFaultOf } from '../db/store-faults';
import { Waiter, type Timers } from '../timers';
import { RETRY_MAX_MS, retryDelayMs } from './backoff';
import type { Job, JobError, JobKindName, JobState, Outcome, StoredJob } from './job-model';
import type { JobsRepo } from './jobs-repo';

/**
 * What one kind of job brings to the runner: how to send it, what a failure means, and how to
 * settle its in-doubt jobs by reading the server. Ordering, concurrency, backoff, pause and a
 * local write that fails are the runner's.
 */
export interface JobKind<D> {
  readonly name: JobKindName;
  readonly data: z.ZodType<D>;
  /** Jobs outside batches in flight at once (a batch has its own concurrency). */
  readonly concurrency: number;
  /**
   * An in-doubt job is reconciled no sooner than this after it became in doubt (or was found so
   * at a start): a request the client gave up on may still be on its way to a commit.
   */
  readonly inDoubtGraceMs: number;
  /**
   * Inside the claim's transaction: the data to send (saved with the job), or an outcome that
   * settles the job at once with nothing sent.
   */
  prepare?(job: Job<D>): { data: D } | { outcome: Outcome };
  /** Sends the job. A throw is read by failure(). */
  send(job: Job<D>): Promise<Outcome>;
  /** What an error thrown by send() means for the job. */
  failure(job: Job<D>, error: unknown): Outcome;
  /**
   * Reads the server for in-doubt jobs: per job id an outcome, or null while it stays unknown.
   * Throws when the server could not be read (they all stay in doubt).
   */
  reconcile(jobs: readonly Job<D>[]): Promise<Map<number, Outcome | null>>;
}

/** A job's state changed (after its commit). */
export interface JobChanged {
  id: number;
  kind: JobKindName;
  batchId: string | null;
  queueKey: string | null;
  from: JobState;
  state: JobState;
  error: JobError | null;
}

export interface JobRunnerOptions {
  db: Db;
  jobs: JobsRepo;
  clock: Clock;
  timers: Timers;
  // Each kind parses its own data; the runner only hands it through.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  kinds: readonly JobKind<any>[];
  /** The server's time now, kept with each claim (null: no answer has told it yet). */
  serverNow?: () => number | null;
  /** False while the server is known to be unreachable: nothing is sent or read then. */
  online?: () => boolean;
  /** True while the connection's credentials are refused: nothing is sent or read, even on a drain. */
  held?: () => boolean;
  random?: () => number;
  log?: (line: string) => void;
  onChanged?: (change: JobChanged) => void;
}

/** Tries of a local write before its job is left in doubt instead. */
const RECORD_TRIES = 5;
const RECORD_RETRY_MS = 100;
/** The longest wait before a failed local write is tried again (a disk full for hours). */
const RECORD_RETRY_MAX_MS = 30_000;
/** The longest wait between two reconciliation rounds of a kind. */
const RECONCILE_MAX_DELAY_MS = 15_000;
/** In-doubt jobs read per reconciliation round. */
const RECONCILE_LIMIT = 500;
/** Look again this soon when the schedule could not be read. */
const RECHECK_MS = 1_000;

/** A job whose data does not parse cannot be sent or reconciled: rejected, with the reason. */
const UNREADABLE: Outcome = {
  to: 'rejected',
  error: { kind: 'local', message: 'Its stored data cannot be read.' },
};

interface Claimed {
  send: Job<unknown>[];
  settled: { job: StoredJob; outcome: Outcome }[];
}

interface Unrecorded {
  job: StoredJob;
  from: JobState;
  outcome: Outcome;
  tries: number;
  at: number;
}

/**
 * The one durable job runner for every write to the server (Signal Desktop's JobQueue is the
 * model). A job is claimed ('sending') in a committed transaction before it is sent; its outcome
 * is written with the domain rows it concerns in one transaction. A job whose outcome is unknown
 * is 'in_doubt' and is reconciled by its kind, by reading the server, before anything is sent
 * again. A kill at any moment leaves at most the jobs in flight ('sending') to reconcile at the
 * next start.
 */
export class JobRunner {
  private readonly waiter: Waiter;
  private readonly kinds: Map<JobKindName, JobRunnerOptions['kinds'][number]>;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly sendingOf = new Map<JobKindName, number>();
  private readonly reconciling = new Map<JobKindName, Promise<void>>();
  private readonly reconcileBackoff = new Map<JobKindName, { failures: number; until: number }>();
  private readonly unrecorded = new Map<number, Unrecorded>();
  private readonly drains = new Map<JobKindName, (() => void)[]>();
  /** Kinds a drain asked for now: sent and reconciled even while the server seems unreachable. */
  private readonly forced = new Set<JobKindName>();
  private loop: Promise<void> | null = null;
  private stopping = false;
  /** A claim failed this round (a local write that failed): the next round comes soon. */
  private claimFailed = false;

  constructor(private readonly o: JobRunnerOptions) {
    this.waiter = new Waiter(o.timers);
    this.kinds = new Map(o.kinds.map((k) => [k.name, k]));
  }

  /** Jobs left 'sending' by an earlier process are in doubt; then the loop starts. */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    const orphans = this.o.jobs.markOrphansInDoubt();
    if (orphans > 0) this.log(`${orphans} job(s) were being sent at the last exit: in doubt`);
    const moved = this.o.jobs.clampSchedules(this.o.clock.now(), RETRY_MAX_MS);
    if (moved > 0) this.log(`${moved} job(s) were scheduled past their longest wait: due now`);
    this.o.jobs.pruneDone(this.o.clock.now() - 7 * 86_400_000);
    this.loop = this.run().finally(() => {
      this.loop = null;
    });
  }

  /** Stops claiming; resolves once the jobs in flight and reconciliations have settled. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.waiter.wake();
    await this.loop;
    for (const waiters of this.drains.values()) for (const resolve of waiters) resolve();
    this.drains.clear();
    this.forced.clear();
  }

  /** Something may be due (a new job, a batch continued, the server back): look now. */
  wake(): void {
    this.waiter.wake();
  }

  /**
   * Resolves when no job of `kind` is due, in flight or being reconciled (in-doubt jobs within
   * their grace, or waiting for their backoff, may remain), or when the server is unreachable.
   * `now` (the user asked): queued jobs of the kind are due at once, their reconciliation backoff
   * is lifted, and they are tried even if the server seemed unreachable (the requests tell).
   */
  drain(kind: JobKindName, options: { now?: boolean } = {}): Promise<void> {
    if (options.now) {
      this.o.jobs.makeDue(kind);
      this.reconcileBackoff.delete(kind);
    }
    if (!this.loop) return Promise.resolve();
    if (options.now) this.forced.add(kind);
    return new Promise((resolve) => {
      this.drains.set(kind, [...(this.drains.get(kind) ?? []), resolve]);
      this.waiter.wake();
    });
  }

  /**
   * Whether jobs of `name` are sent now: the server is reachable, or a drain asked for them; never
   * while the credentials are refused.
   */
  private active(name: JobKindName): boolean {
    if (this.o.held?.()) return false;
    return this.forced.has(name) || (this.o.online?.() ?? true);
  }

  private async run(): Promise<void> {
    try {
      while (!this.stopping) {
        // One time for the round's claims and its next wake-up: a job that becomes due while
        // the round runs is then still "later" for the wake-up, never due-but-unclaimed.
        const now = this.o.clock.now();
        this.retryUnrecorded();
        for (const kind of this.kinds.values()) {
          if (!this.active(kind.name)) continue;
          this.launch(kind, now);
          this.startReconcile(kind);
        }
        this.resolveDrains();
        await this.waiter.wait(this.nextWakeDelay(now));
      }
    } finally {
      await Promise.all([...this.inFlight, ...this.reconciling.values()]);
      this.retryUnrecorded(true);
    }
  }

  /** Claims and sends the jobs of `kind` that are due and have a free place. */
  private launch(kind: JobKind<unknown>, now: number): void {
    // A job that preparation settled frees its place: claim again until nothing more comes.
    for (let again = true; again;) {
      let claimed: Claimed;
      try {
        claimed = runTransaction(this.o.db, () => this.claimDue(kind, now));
      } catch (error) {
        this.log(`could not claim a ${kind.name} job: ${messageOf(error)}`);
        // Nothing else may wake the runner for the jobs that are due (a full disk): look again.
        this.claimFailed = true;
        return;
      }
      again = claimed.settled.length > 0;
      this.dispatch(kind, claimed);
    }
  }

  /**
   * Inside the caller's transaction: the claims (of every lane, or of the place `freed` by a job
   * that settled), then the kind's preparation of each (saved with the job). A job that
   * preparation settles (nothing to send) is written at once.
   */
  private claimDue(kind: JobKind<unknown>, now: number, freed?: StoredJob): Claimed {
    const claimed: Claimed = { send: [], settled: [] };
    const serverNow = this.o.serverNow?.() ?? null;
    const jobs = freed
      ? this.o.jobs.claimInLane(kind.name, freed.batchId, now, 1, serverNow)
      : this.o.jobs.claimDue(kind.name, now, kind.concurrency, serverNow);
    for (const stored of jobs) {
      const job = this.parse(kind, stored);
      const prepared = job ? this.prepare(kind, job) : { outcome: UNREADABLE };
      if ('outcome' in prepared) {
        this.write(stored, 'sending', prepared.outcome);
        claimed.settled.push({ job: stored, outcome: prepared.outcome });
        continue;
      }
      if (prepared.data !== job!.data) this.o.jobs.setData(stored.id, prepared.data);
      claimed.send.push({ ...job!, data: prepared.data });
    }
    return claimed;
  }

  /**
   * The kind's preparation of one claimed job, in a savepoint of its own: whatever it throws (a
   * row that cannot be read, whatever the reason) settles this job alone and the claim goes on
   * with the others. A damaged database (the store is being recovered) puts the job back in the
   * queue for later; anything else rejects it with the reason.
   */
  private prepare(
    kind: JobKind<unknown>,
    job: Job<unknown>,
  ): { data: unknown } | { outcome: Outcome } {
    try {
      return runTransaction(this.o.db, () => kind.prepare?.(job) ?? { data: job.data });
    } catch (error) {
      this.log(`job ${job.id}: its preparation failed: ${messageOf(error)}`);
      // A failure that ended the claim's transaction itself ends the claim (logged by launch).
      if (!this.o.db.inTransaction) throw error;
      const message = messageOf(error);
      return storeFaultOf(error)
        ? {
            outcome: {
              to: 'queued',
              retry: 'backoff',
              error: { kind: 'local', message: `It could not be read here: ${message}` },
            },
          }
        : {
            outcome: {
              to: 'rejected',
              error: { kind: 'local', message: `Its stored data cannot be read: ${message}` },
            },
          };
    }
  }

  /** After the claims committed: their news, and the sends. */
  private dispatch(kind: JobKind<unknown>, claimed: Claimed): void {
    for (const { job, outcome } of claimed.settled) this.changed(job, 'queued', outcome);
    for (const job of claimed.send) {
      this.changed(job, 'queued', { to: 'sending' });
      this.sendingOf.set(kind.name, (this.sendingOf.get(kind.name) ?? 0) + 1);
      const sending: Promise<void> = this.send(kind, job).finally(() => {
        this.inFlight.delete(sending);
      });
      this.inFlight.add(sending);
    }
  }

  private async send(kind: JobKind<unknown>, job: Job<unknown>): Promise<void> {
    let outcome: Outcome;
    try {
      outcome = await kind.send(job);
    } catch (error) {
      outcome = failureOf(kind, job, error);
    }
    this.sendingOf.set(kind.name, (this.sendingOf.get(kind.name) ?? 1) - 1);
    this.record(job, 'sending', outcome, 0, kind);
  }

  /**
   * Writes an outcome; a write that fails is kept and tried again (see retryUnrecorded). After
   * a send, the same transaction claims what the freed place allows (one commit per job on the
   * way), in a savepoint of its own so that a failed claim never undoes the outcome; the loop
   * is woken only when nothing was claimed, to see what else is due or who waits for a drain.
   */
  private record(
    job: StoredJob,
    from: JobState,
    outcome: Outcome,
    tries = 0,
    next?: JobKind<unknown>,
  ): boolean {
    let claimed: Claimed | null = null;
    try {
      runTransaction(this.o.db, () => {
        this.write(job, from, outcome);
        if (!next || this.stopping || !this.active(next.name)) return;
        try {
          claimed = runTransaction(this.o.db, () => this.claimDue(next, this.o.clock.now(), job));
        } catch (error) {
          this.log(`could not claim a ${next.name} job: ${messageOf(error)}`);
        }
      });
    } catch (error) {
      this.log(
        `job ${job.id}: its outcome (${outcome.to}) could not be written: ${messageOf(error)}`,
      );
      this.unrecorded.set(job.id, {
        job,
        from,
        outcome,
        tries: tries + 1,
        at: this.o.clock.now() + Math.min(RECORD_RETRY_MS * 2 ** tries, RECORD_RETRY_MAX_MS),
      });
      this.waiter.wake();
      return false;
    }
    this.unrecorded.delete(job.id);
    this.changed(job, from, outcome);
    const more = claimed as Claimed | null;
    if (next && more) this.dispatch(next, more);
    if (!more || more.send.length === 0) this.waiter.wake();
    return true;
  }

  /** The job's row, then what the outcome writes with it. */
  private write(job: StoredJob, from: JobState, outcome: Outcome): void {
    const now = this.o.clock.now();
    this.o.jobs.settle(job.id, [from], {
      to: outcome.to,
      error: outcome.to === 'done' ? null : outcome.error,
      resultId: outcome.to === 'done' ? (outcome.resultId ?? null) : null,
      nextAttemptAt:
        outcome.to === 'queued' && outcome.retry === 'backoff'
          ? now + retryDelayMs(job.attempts, outcome.retryAfterMs, this.o.random ?? Math.random)
          : null,
    });
    if ('write' in outcome) outcome.write?.();
  }

  /**
   * Outcomes whose write failed, tried again with a backoff. After RECORD_TRIES the job is left
   * in doubt instead (a plain write of its row), so that reconciliation settles it from the
   * server; until even that is written the job stays 'sending', which the next start turns into
   * in doubt. `final`: one last try each (on stop).
   */
  private retryUnrecorded(final = false): void {
    const now = this.o.clock.now();
    for (const entry of [...this.unrecorded.values()]) {
      if (!final && entry.at > now) continue;
      if (entry.tries < RECORD_TRIES) {
        this.record(entry.job, entry.from, entry.outcome, entry.tries);
        continue;
      }
      const error: JobError = {
        kind: 'transport',
        message: 'Its outcome could not be written here; the server is read to settle it.',
      };
      this.record(entry.job, entry.from, { to: 'in_doubt', error }, entry.tries);
    }
  }

  /** Starts one reconciliation round for `kind` when in-doubt jobs are past their grace. */
  private startReconcile(kind: JobKind<unknown>): void {
    if (this.reconciling.has(kind.name)) return;
    const now = this.o.clock.now();
    const backoff = this.reconcileBackoff.get(kind.name);
    if (backoff && backoff.until > now) return;
    let ready: StoredJob[];
    try {
      ready = this.o.jobs.inDoubt(kind.name, now - kind.inDoubtGraceMs, RECONCILE_LIMIT);
    } catch (error) {
      this.log(`could not read the in-doubt ${kind.name} jobs: ${messageOf(error)}`);
      return;
    }
    if (ready.length === 0) return;
    const round = this.reconcile(kind, ready).finally(() => {
      this.reconciling.delete(kind.name);
      this.waiter.wake();
    });
    this.reconciling.set(kind.name, round);
  }

  private async reconcile(kind: JobKind<unknown>, stored: StoredJob[]): Promise<void> {
    let settled = true;
    try {
      const jobs: Job<unknown>[] = [];
      for (const s of stored) {
        const job = this.parse(kind, s);
        if (job) jobs.push(job);
        else this.record(s, 'in_doubt', UNREADABLE);
      }
      const outcomes = await kind.reconcile(jobs);
      for (const job of jobs) {
        const outcome = outcomes.get(job.id) ?? null;
        if (outcome === null || outcome.to === 'in_doubt') settled = false;
        else if (!this.record(job, 'in_doubt', outcome)) settled = false;
      }
    } catch (error) {
      settled = false;
      this.log(
        `reconciliation of ${stored.length} ${kind.name} job(s) failed: ${messageOf(error)}`,
      );
    }
    if (settled) {
      this.reconcileBackoff.delete(kind.name);
      return;
    }
    // Jobs still in doubt: read again later, less often each time (they hold their batch back,
    // and a read is cheap, so never less often than every RECONCILE_MAX_DELAY_MS).
    const failures = (this.reconcileBackoff.get(kind.name)?.failures ?? 0) + 1;
    const delay = Math.min(
      RECONCILE_MAX_DELAY_MS,
      retryDelayMs(failures, undefined, this.o.random ?? Math.random),
    );
    this.reconcileBackoff.set(kind.name, { failures, until: this.o.clock.now() + delay });
  }

  /**
   * Called right after launch(): a kind with nothing in flight, in reconciliation or waiting to
   * be written has nothing due that could be claimed now (a due job left over waits for a full
   * or paused batch, or an earlier job of its queue).
   */
  private resolveDrains(): void {
    for (const [name, waiters] of [...this.drains]) {
      const busy =
        this.active(name) &&
        ((this.sendingOf.get(name) ?? 0) > 0 ||
          this.reconciling.has(name) ||
          [...this.unrecorded.values()].some((u) => u.job.kind === name));
      if (busy) continue;
      this.drains.delete(name);
      this.forced.delete(name);
      for (const resolve of waiters) resolve();
    }
  }

  /** How long to wait after a round whose claims were made at `now`. */
  private nextWakeDelay(now: number): number {
    let next = Infinity;
    if (this.claimFailed) {
      this.claimFailed = false;
      next = now + RECHECK_MS;
    }
    for (const entry of this.unrecorded.values()) next = Math.min(next, entry.at);
    for (const kind of this.kinds.values()) {
      if (!this.active(kind.name)) continue;
      let schedule: ReturnType<JobsRepo['schedule']>;
      try {
        schedule = this.o.jobs.schedule(kind.name, now);
      } catch {
        next = Math.min(next, now + RECHECK_MS);
        continue;
      }
      if (schedule.nextDue !== null) next = Math.min(next, schedule.nextDue);
      if (schedule.oldestInDoubt !== null && !this.reconciling.has(kind.name)) {
        const due = schedule.oldestInDoubt + kind.inDoubtGraceMs;
        const until = this.reconcileBackoff.get(kind.name)?.until ?? 0;
        next = Math.min(next, Math.max(due, until, now));
      }
    }
    return next === Infinity ? Infinity : Math.max(0, next - this.o.clock.now());
  }

  /** The job with its data parsed by its kind; null (logged) when the data does not parse. */
  private parse<D>(kind: JobKind<D>, stored: StoredJob): Job<D> | null {
    try {
      return { ...stored, data: parseRow(kind.data, stored.data, 'jobs', `id=${stored.id}`) };
    } catch (error) {
      this.log(messageOf(error));
      return null;
    }
  }

  private changed(
    job: Pick<StoredJob, 'id' | 'kind' | 'batchId' | 'queueKey'>,
    from: JobState,
    outcome: Outcome | { to: 'sending' },
  ) {
    try {
      this.o.onChanged?.({
        id: job.id,
        kind: job.kind,
        batchId: job.batchId,
        queueKey: job.queueKey,
        from,
        state: outcome.to,
        error: 'error' in outcome ? outcome.error : null,
      });
    } catch (error) {
      this.log(`a job listener failed: ${messageOf(error)}`);
    }
  }

  private log(line: string): void {
    this.o.log?.(line);
  }
}

/** What a failed send means, by the kind; a kind that cannot tell leaves the job in doubt. */
function failureOf(kind: JobKind<unknown>, job: Job<unknown>, error: unknown): Outcome {
  try {
    return kind.failure(job, error);
  } catch (failure) {
    return { to: 'in_doubt', error: { kind: 'transport', message: messageOf(failure) } };
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
