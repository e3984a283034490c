import { setImmediate as nextTurn } from 'node:timers/promises';
import { z } from 'zod';
import type { Job, JobKindName, Outcome } from '@main/jobs/job-model';
import { JobRunner, type JobChanged, type JobKind } from '@main/jobs/job-runner';
import type { LocalStore } from '@main/stores';
import type { Timers } from '@main/timers';
import { memoryStore } from './store-fixtures';

/**
 * What a fake job carries: a label (plain jobs), or the protocol of an order job that
 * BatchesRepo.insertBatch wrote (its request is not needed here and is left out when parsed).
 */
export const FakeData = z.object({
  label: z.string().optional(),
  protocolLocalId: z.string().nullable().optional(),
});
export type FakeData = z.infer<typeof FakeData>;
export type FakeJob = Job<FakeData>;

export const labelOf = (job: { data: FakeData }): string =>
  job.data.label ?? job.data.protocolLocalId ?? '?';

/** Lets every promise chain that is ready run (the runner's loop, sends, records). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await nextTurn();
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface Send {
  job: FakeJob;
  /**
   * How many sends of this kind and of the same batch (or outside batches) were unanswered when
   * this one started, itself included.
   */
  inFlight: number;
  answered: boolean;
}

export interface Reconcile {
  jobs: FakeJob[];
  answered: boolean;
}

export const GRACE_MS = 10_000;

/**
 * A JobKind whose sends and reconciliations wait for the test: answer(label, outcome) settles
 * the send of the job labelled `label`, fail(label, error) makes it throw (read by `failure`,
 * which by default leaves the job in doubt); reconciled(outcomes) and reconcileFails(error)
 * answer the oldest open reconciliation.
 */
export function fakeKind(
  options: {
    name?: JobKindName;
    concurrency?: number;
    inDoubtGraceMs?: number;
    prepare?: JobKind<FakeData>['prepare'];
    failure?: JobKind<FakeData>['failure'];
    /** Called as each send starts, before the test answers it. */
    onSend?: (job: FakeJob) => void;
  } = {},
) {
  const sends: (Send & { settle: ReturnType<typeof deferred<Outcome>> })[] = [];
  const reconciles: (Reconcile & {
    settle: ReturnType<typeof deferred<Map<number, Outcome | null>>>;
  })[] = [];
  const open = () => sends.filter((s) => !s.answered);
  const openSend = (label: string) => {
    const send = open().find((s) => labelOf(s.job) === label);
    if (!send) throw new Error(`no ${label} in flight (in flight: ${inFlight().join(', ')})`);
    send.answered = true;
    return send;
  };
  const openReconcile = () => {
    const round = reconciles.find((r) => !r.answered);
    if (!round) throw new Error('no reconciliation under way');
    round.answered = true;
    return round;
  };
  const inFlight = () => open().map((s) => labelOf(s.job));

  const kind: JobKind<FakeData> = {
    name: options.name ?? 'order',
    data: FakeData,
    concurrency: options.concurrency ?? 4,
    inDoubtGraceMs: options.inDoubtGraceMs ?? GRACE_MS,
    ...(options.prepare ? { prepare: options.prepare } : {}),
    send(job) {
      options.onSend?.(job);
      const settle = deferred<Outcome>();
      const group = open().filter((s) => s.job.batchId === job.batchId);
      sends.push({ job, inFlight: group.length + 1, answered: false, settle });
      return settle.promise;
    },
    failure:
      options.failure ??
      ((_job, error) => ({
        to: 'in_doubt',
        error: { kind: 'transport', message: error instanceof Error ? error.message : '?' },
      })),
    reconcile(jobs) {
      const settle = deferred<Map<number, Outcome | null>>();
      reconciles.push({ jobs: [...jobs], answered: false, settle });
      return settle.promise;
    },
  };

  return {
    kind,
    sends: sends as readonly Send[],
    reconciles: reconciles as readonly Reconcile[],
    /** Labels of the jobs sent, in the order they were sent (a job sent twice is there twice). */
    sent: () => sends.map((s) => labelOf(s.job)),
    /** Labels of the jobs whose send is unanswered. */
    inFlight,
    /** The most jobs of a batch (or outside batches: null) in flight at once so far. */
    maxInFlight: (batchId: string | null = null) =>
      Math.max(0, ...sends.filter((s) => s.job.batchId === batchId).map((s) => s.inFlight)),
    answer(label: string, outcome: Outcome): FakeJob {
      const send = openSend(label);
      send.settle.resolve(outcome);
      return send.job;
    },
    fail(label: string, error: unknown): FakeJob {
      const send = openSend(label);
      send.settle.reject(error);
      return send.job;
    },
    reconciling: () => reconciles.some((r) => !r.answered),
    /** The jobs of the open reconciliation, answered with `outcomes` by label. */
    reconciled(outcomes: Record<string, Outcome | null>): FakeJob[] {
      const round = openReconcile();
      const byId = new Map<number, Outcome | null>();
      for (const job of round.jobs) {
        const outcome = outcomes[labelOf(job)];
        if (outcome !== undefined) byId.set(job.id, outcome);
      }
      round.settle.resolve(byId);
      return round.jobs;
    },
    reconcileFails(error: unknown): FakeJob[] {
      const round = openReconcile();
      round.settle.reject(error);
      return round.jobs;
    },
    /** Answers everything still open (so that a runner can stop). */
    release() {
      for (const s of open()) {
        s.answered = true;
        s.settle.resolve({ to: 'in_doubt', error: { kind: 'transport', message: 'released' } });
      }
      for (const r of reconciles.filter((x) => !x.answered)) {
        r.answered = true;
        r.settle.resolve(new Map());
      }
    },
  };
}
export type FakeKind = ReturnType<typeof fakeKind>;

type ManualClock = { now(): number; advance(ms: number): void };

/**
 * Timers on the store's manual clock: advance(ms) fires, in order, every timer due within that
 * time, moving the clock to each one's time and letting the runner react before the next.
 */
export function manualTimers(clock: ManualClock) {
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const moveTo = (at: number) => {
    if (at > clock.now()) clock.advance(at - clock.now());
  };
  const api: Timers & { advance(ms: number): Promise<void>; count(): number } = {
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: clock.now() + ms, fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    async advance(ms) {
      const until = clock.now() + ms;
      for (;;) {
        await settle();
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        moveTo(due[1].at);
        due[1].fn();
      }
      moveTo(until);
      await settle();
    },
    count: () => timers.size,
  };
  return api;
}

export interface Harness {
  store: LocalStore & { clock: ManualClock };
  runner: JobRunner;
  timers: ReturnType<typeof manualTimers>;
  changes: JobChanged[];
  logs: string[];
  /** online(): the server reachable; held: the credentials refused (nothing sent, even on a drain). */
  net: { online: boolean; held: boolean };
  /** A queued job of the first kind (or of `kind`) labelled `label`; returns its id. */
  enqueue(
    label: string,
    extra?: { queueKey?: string; nextAttemptAt?: number; kind?: JobKindName },
  ): number;
  job(id: number): NonNullable<ReturnType<LocalStore['jobs']['get']>>;
  /** Starts the runner and lets it claim what it can. */
  start(): Promise<void>;
  /** Answers whatever is still open and stops the runner. */
  close(): Promise<void>;
}

/**
 * A JobRunner on an in-memory store (or `store`), with fake kinds, manual timers on the store's
 * clock, a switch for online(), a random of 0 (backoff: half its ceiling, 500 ms for a first
 * attempt) and every onChanged event and log line recorded.
 */
export function harness(
  kinds: readonly FakeKind[] = [fakeKind()],
  options: {
    store?: LocalStore & { clock: ManualClock };
    onChanged?: (change: JobChanged) => void;
  } = {},
): Harness {
  const store = options.store ?? memoryStore();
  const timers = manualTimers(store.clock);
  const changes: JobChanged[] = [];
  const logs: string[] = [];
  const net = { online: true, held: false };
  const runner = new JobRunner({
    db: store.db,
    jobs: store.jobs,
    clock: store.clock,
    timers,
    kinds: kinds.map((k) => k.kind),
    online: () => net.online,
    held: () => net.held,
    random: () => 0,
    log: (line) => logs.push(line),
    onChanged: (change) => {
      changes.push(change);
      options.onChanged?.(change);
    },
  });
  return {
    store,
    runner,
    timers,
    changes,
    logs,
    net,
    enqueue(label, extra = {}) {
      const id = store.jobs.enqueue({
        kind: extra.kind ?? kinds[0]!.kind.name,
        data: { label },
        queueKey: extra.queueKey ?? null,
        nextAttemptAt: extra.nextAttemptAt ?? null,
      });
      runner.wake();
      return id;
    },
    job(id) {
      const job = store.jobs.get(id);
      if (!job) throw new Error(`no job ${id}`);
      return job;
    },
    async start() {
      runner.start();
      await settle();
    },
    async close() {
      const stopped = runner.stop(); // claims nothing more from here
      for (const k of kinds) k.release();
      await stopped;
      store.close();
    },
  };
}
