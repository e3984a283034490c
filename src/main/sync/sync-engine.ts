import { z } from 'zod';
import { SKIPPED_SHOWN_MAX, type CoreEvents } from '@shared/core-events';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import type { Clock } from '../clock';
import type { CoreEventBus } from '../core-event-bus';
import type { JobChanged, JobRunner } from '../jobs/job-runner';
import { orderStatusEvent } from '../orders/orders-repo';
import { createsInFlight } from '../protocols/change-queue';
import { outboxCount } from '../protocols/conflicts';
import { SYNC_KEYS } from '../db';
import type { LocalStore } from '../stores';
import { systemTimers, type Timers } from '../timers';
import type { Connectivity } from './connectivity';
import { pullMirror, type MirrorPullOptions, type PullReport } from './mirror-pull';

export interface SyncEngineOptions {
  store: LocalStore;
  client: ApiClient;
  connectivity: Connectivity;
  /** The runner that sends the protocols' pending changes. */
  jobs: Pick<JobRunner, 'wake' | 'drain'>;
  bus: CoreEventBus;
  clock: Clock;
  /** The server's time (the window of recent orders ends at it). Default `clock`. */
  serverTime?: Clock;
  /** Called after each pull of the mirror (what it brought may be worth a look). */
  afterPull?: () => void;
  timers?: Timers;
  /** Period of the background sync while online. Default 60 s. */
  intervalMs?: number;
  /** Background runs walk every server protocol at most this often. Default 5 min. */
  protocolWalkIntervalMs?: number;
  pull?: Partial<Pick<MirrorPullOptions, 'productOverlapMs' | 'ordersWindowMs' | 'ordersMaxPages'>>;
  log?: (line: string) => void;
}

/** What the protocols' pending changes did during a sync run. */
export interface PushReport {
  /** Changes the server acknowledged. */
  pushed: number;
  /** Changes whose answer was lost, found applied on the server by reconciliation. */
  adopted: number;
  conflicts: number;
  /** Refused by the server (400/422) or incomplete: the draft waits for the user. */
  rejected: number;
  /** Changes in doubt after the run, to reconcile later. */
  inDoubt: number;
  /** The server could not take a change now (503, 429, credentials): it is sent again later. */
  retried: number;
  /** Why changes are still waiting after the run; null when nothing stopped them. */
  stopped: 'offline' | 'error' | null;
  error: string | null;
}

export const emptyPushReport = (): PushReport => ({
  pushed: 0,
  adopted: 0,
  conflicts: 0,
  rejected: 0,
  inDoubt: 0,
  retried: 0,
  stopped: null,
  error: null,
});

export interface SyncReport {
  /** 'push' runs follow local edits; 'full' runs push, then pull the mirror. */
  kind: 'full' | 'push';
  startedAt: string;
  finishedAt: string;
  push: PushReport;
  pull: PullReport | null;
  /** How the run ended. */
  phase: 'idle' | 'offline' | 'error';
  error: string | null;
  /** Items of the pull that could not be read: left out, the rest applied. */
  skipped: string[];
}

interface RunRequest {
  full: boolean;
  walkProtocols: boolean;
  ignoreBackoff: boolean;
}

const LAST_SYNCED_KEY = 'sync.lastSyncedAt';

/** Why nothing is synced while the credentials are refused, and how to fix it. */
export const CREDENTIALS_REJECTED =
  "The server rejected this connection's credentials, so nothing is sent until the new client secret is entered in Connection.";
type SyncState = CoreEvents['sync-state'];
type OutboxCount = CoreEvents['outbox-count'];

/**
 * Sync: push, then pull. Drafting is protocols/protocol-commands.ts's (the row and its pending
 * change, a job, in one transaction); the job runner sends each change once its edits settle. A
 * run lets the runner send what is due first, then pulls the mirror (docs/decisions.md says why
 * in that order). Runs are single-flight: concurrent syncNow calls share
 * one run, and a request made during a run is served by one follow-up run.
 */
export class SyncEngine {
  private readonly timers: Timers;
  private readonly intervalMs: number;
  private readonly walkEveryMs: number;
  private inflight: { req: RunRequest; promise: Promise<SyncReport> } | null = null;
  private queued: {
    req: RunRequest;
    promise: Promise<SyncReport>;
    resolve: (r: SyncReport) => void;
  } | null = null;
  private started = false;
  private tickTimer: unknown = null;
  private unsubscribe: (() => void) | null = null;
  private lastState: SyncState | null = null;
  private lastCount: OutboxCount | null = null;
  /** The push report of the run in progress, fed by the runner's news. */
  private pushing: PushReport | null = null;

  constructor(private readonly o: SyncEngineOptions) {
    this.timers = o.timers ?? systemTimers;
    this.intervalMs = o.intervalMs ?? 60_000;
    this.walkEveryMs = o.protocolWalkIntervalMs ?? 5 * 60_000;
  }

  /** When the last complete sync finished (ISO), or null. */
  get lastSyncedAt(): string | null {
    return this.o.store.syncState.get(LAST_SYNCED_KEY, z.string());
  }

  /** Push, then pull everything (the user's "Sync now"); backoffs are not waited for. */
  syncNow(): Promise<SyncReport> {
    return this.request({ full: true, walkProtocols: true, ignoreBackoff: true });
  }

  /** Starts the background sync: a first run when online, then every interval. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.unsubscribe = this.o.bus.on('connectivity', (event) => {
      if (event.online) this.background({ full: true, walkProtocols: true, ignoreBackoff: true });
    });
    this.emitCounts();
    if (this.o.connectivity.online) {
      this.background({ full: true, walkProtocols: true, ignoreBackoff: false });
    }
    this.scheduleTick();
  }

  /** Stops the background sync and waits for a run in progress. */
  async stop(): Promise<void> {
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.tickTimer !== null) this.timers.clearTimeout(this.tickTimer);
    this.tickTimer = null;
    while (this.inflight || this.queued) {
      await (this.queued ?? this.inflight)!.promise.catch(() => undefined);
    }
  }

  /** The job runner's news: a protocol's change moved (counts, and the push report of a run). */
  readonly onJobChanged = (change: JobChanged): void => {
    if (change.kind !== 'protocol') return;
    const report = this.pushing;
    if (report) {
      if (change.state === 'done') {
        if (change.from === 'in_doubt') report.adopted++;
        else report.pushed++;
      } else if (change.state === 'rejected') {
        if (change.error?.kind === 'conflict') report.conflicts++;
        else report.rejected++;
      } else if (change.state === 'queued' && change.from === 'sending' && change.error) {
        report.retried++;
        report.error = change.error.kind === 'transport' ? change.error.message : null;
      }
    }
    if (change.state !== 'sending') this.emitCounts();
  };

  private scheduleTick(): void {
    if (!this.started || this.tickTimer !== null) return;
    this.tickTimer = this.timers.setTimeout(() => {
      this.tickTimer = null;
      if (!this.o.connectivity.online) return this.scheduleTick();
      const last = this.o.store.syncState.get(SYNC_KEYS.protocolsLastFullPull, z.number());
      const walk = last === null || this.o.clock.now() - last >= this.walkEveryMs;
      void this.request({ full: true, walkProtocols: walk, ignoreBackoff: false })
        .catch(() => undefined)
        .finally(() => this.scheduleTick());
    }, this.intervalMs);
  }

  private background(req: RunRequest): void {
    this.request(req).catch((error: unknown) => this.o.log?.(`sync failed: ${messageOf(error)}`));
  }

  /**
   * Single flight: a full request while a full run is in progress shares it; anything else is
   * merged into one follow-up run (a push request always gets one, since the edit may have come
   * after the running push).
   */
  private request(req: RunRequest): Promise<SyncReport> {
    if (!this.inflight) return this.launch(req);
    if (req.full && this.inflight.req.full && !this.queued) return this.inflight.promise;
    if (this.queued) {
      const q = this.queued.req;
      this.queued.req = {
        full: q.full || req.full,
        walkProtocols: q.walkProtocols || req.walkProtocols,
        ignoreBackoff: q.ignoreBackoff || req.ignoreBackoff,
      };
      return this.queued.promise;
    }
    let resolve!: (r: SyncReport) => void;
    const promise = new Promise<SyncReport>((r) => (resolve = r));
    this.queued = { req, promise, resolve };
    return promise;
  }

  private launch(req: RunRequest): Promise<SyncReport> {
    const promise = this.execute(req).finally(() => {
      this.inflight = null;
      const next = this.queued;
      this.queued = null;
      if (next) void this.launch(next.req).then(next.resolve);
    });
    this.inflight = { req, promise };
    return promise;
  }

  /** One run; never throws: failures end in phase 'offline' or 'error'. */
  private async execute(req: RunRequest): Promise<SyncReport> {
    const { store, client, clock } = this.o;
    const startedAt = new Date(clock.now()).toISOString();
    let push = emptyPushReport();
    let pull: PullReport | null = null;
    let phase: SyncReport['phase'] = 'idle';
    let error: string | null = null;
    let syncedAt: string | null = null;
    let skipped: string[] = [];
    if (this.o.connectivity.held) {
      // Refused credentials hold the connection: nothing is asked of the server with them.
      this.emitCounts();
      this.emitState('offline', CREDENTIALS_REJECTED);
      const at = new Date(clock.now()).toISOString();
      return {
        kind: req.full ? 'full' : 'push',
        startedAt,
        finishedAt: at,
        push,
        pull,
        phase: 'offline',
        error: CREDENTIALS_REJECTED,
        skipped: [],
      };
    }
    try {
      this.emitState('pushing', null);
      push = await this.push(req.ignoreBackoff);
      if (push.stopped) {
        phase = push.stopped;
        error = push.error;
      } else if (req.full) {
        this.emitState('pulling', null);
        // A create in flight or in doubt must settle before its server copy may be mirrored as
        // a protocol of its own (that would hide it from the reconciliation and resend it).
        const creating = createsInFlight({ db: store.db, clock, jobs: store.jobs }) > 0;
        pull = await pullMirror({
          store,
          client,
          clock,
          ...(this.o.serverTime ? { serverTime: this.o.serverTime } : {}),
          ...this.o.pull,
          parts: { protocols: req.walkProtocols && !creating },
          onOrderChange: (change) => this.o.bus.emit('order-status', orderStatusEvent(change)),
        });
        skipped = pull.skipped;
        for (const line of skipped) this.o.log?.(`left out of the sync: ${line}`);
        this.o.afterPull?.();
        syncedAt = new Date(clock.now()).toISOString();
        store.syncState.set(LAST_SYNCED_KEY, syncedAt);
      }
    } catch (e) {
      const offline = isApiClientError(e, 'network') || isApiClientError(e, 'timeout');
      phase = offline ? 'offline' : 'error';
      error = messageOf(e);
      if (!offline) this.o.log?.(`sync failed: ${error}`);
    }
    this.emitCounts();
    this.emitState(phase, error, skipped);
    return {
      kind: req.full ? 'full' : 'push',
      startedAt,
      finishedAt: syncedAt ?? new Date(clock.now()).toISOString(),
      push,
      pull,
      phase,
      error,
      skipped,
    };
  }

  /**
   * Lets the runner send every protocol change that is due (all of them when `now`) and reports
   * what became of them. Changes that could not go (offline, 503) wait for their backoff.
   */
  private async push(now: boolean): Promise<PushReport> {
    const report = emptyPushReport();
    this.pushing = report;
    try {
      await this.o.jobs.drain('protocol', { now });
    } finally {
      this.pushing = null;
    }
    const counts = this.o.store.jobs.counts({ kind: 'protocol' });
    report.inDoubt = counts.in_doubt;
    if (!this.o.connectivity.online && report.retried > 0) {
      report.stopped = 'offline';
      report.error ??= 'The server cannot be reached.';
    } else if (report.retried > 0 && counts.queued > 0) {
      report.stopped = 'error';
    } else report.error = null;
    return report;
  }

  private emitState(phase: SyncState['phase'], error: string | null, skipped: string[] = []): void {
    const state: SyncState = {
      phase,
      lastSyncedAt: this.lastSyncedAt,
      error,
      skipped:
        skipped.length > SKIPPED_SHOWN_MAX
          ? [
              ...skipped.slice(0, SKIPPED_SHOWN_MAX - 1),
              `and ${skipped.length - SKIPPED_SHOWN_MAX + 1} more`,
            ]
          : skipped,
    };
    if (JSON.stringify(state) === JSON.stringify(this.lastState)) return;
    this.lastState = state;
    this.o.bus.emit('sync-state', state);
  }

  /** Emits outbox-count when it changed. */
  emitCounts(): OutboxCount {
    const count = outboxCount(this.o.store);
    if (JSON.stringify(count) !== JSON.stringify(this.lastCount)) {
      this.lastCount = count;
      this.o.bus.emit('outbox-count', count);
    }
    return count;
  }
}

const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
