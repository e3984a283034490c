import { z } from 'zod';
import type { ProtocolRequest } from '../../shared/api';
import type { CoreEvents } from '../../shared/events';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import type { Clock } from '../clock';
import type { CoreEventBus } from '../events';
import {
  SYNC_KEYS,
  type LocalProtocol,
  type LocalStore,
  type OutboxEffect,
  type ProtocolDraft,
} from '../store';
import {
  listConflicts,
  outboxCount,
  resolveConflict,
  type ConflictChoice,
  type ConflictView,
  type Resolution,
} from '../protocols/conflicts';
import type { Connectivity } from './connectivity';
import { pullMirror, type MirrorPullOptions, type PullReport } from './mirror-pull';
import { emptyPushReport, pushOutbox, type PushOptions, type PushReport } from './outbox-push';
import { messageOf } from './push-steps';
import { systemTimers, type Timers } from '../timers';

export interface SyncEngineOptions {
  store: LocalStore;
  client: ApiClient;
  connectivity: Connectivity;
  bus: CoreEventBus;
  clock: Clock;
  timers?: Timers;
  /** Period of the background sync while online. Default 60 s. */
  intervalMs?: number;
  /** A local edit is pushed this long after the last one (edits in a burst go together). Default 500 ms. */
  pushDebounceMs?: number;
  /** Background runs walk every server protocol at most this often. Default 5 min. */
  protocolWalkIntervalMs?: number;
  push?: Partial<Pick<PushOptions, 'skewMs' | 'inDoubtGraceMs' | 'retryBaseMs' | 'retryMaxMs'>>;
  pull?: Partial<Pick<MirrorPullOptions, 'productOverlapMs' | 'ordersWindowMs' | 'ordersMaxPages'>>;
  log?: (line: string) => void;
}

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
}

interface RunRequest {
  full: boolean;
  walkProtocols: boolean;
  ignoreBackoff: boolean;
}

const LAST_SYNCED_KEY = 'sync.lastSyncedAt';
type SyncState = CoreEvents['sync-state'];
type OutboxCount = CoreEvents['outbox-count'];

/**
 * Offline drafting and sync. Drafting writes the row and its outbox entry in one transaction
 * (ProtocolsRepo) and nudges a push. A run pushes the outbox first, then pulls the mirror (see
 * docs/decisions.md for why in that order). Runs are single-flight: concurrent syncNow calls share
 * one run, and a request made during a run is served by one follow-up run.
 */
export class SyncEngine {
  private readonly timers: Timers;
  private readonly intervalMs: number;
  private readonly debounceMs: number;
  private readonly walkEveryMs: number;
  private inflight: { req: RunRequest; promise: Promise<SyncReport> } | null = null;
  private queued: {
    req: RunRequest;
    promise: Promise<SyncReport>;
    resolve: (r: SyncReport) => void;
  } | null = null;
  private started = false;
  private tickTimer: unknown = null;
  private pushTimer: unknown = null;
  private unsubscribe: (() => void) | null = null;
  private lastState: SyncState | null = null;
  private lastCount: OutboxCount | null = null;

  constructor(private readonly o: SyncEngineOptions) {
    this.timers = o.timers ?? systemTimers;
    this.intervalMs = o.intervalMs ?? 60_000;
    this.debounceMs = o.pushDebounceMs ?? 500;
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

  /** Starts the background sync: crash recovery, a first run when online, then every interval. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.o.store.outbox.recoverAfterCrash();
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
    for (const t of [this.tickTimer, this.pushTimer]) if (t !== null) this.timers.clearTimeout(t);
    this.tickTimer = null;
    this.pushTimer = null;
    while (this.inflight || this.queued) {
      await (this.queued ?? this.inflight)!.promise.catch(() => undefined);
    }
  }

  createProtocol(draft: ProtocolRequest): LocalProtocol {
    const p = this.o.store.protocols.createDraft(draft);
    this.nudge();
    return p;
  }

  updateProtocol(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const p = this.o.store.protocols.updateDraft(localId, draft);
    this.nudge();
    return p;
  }

  deleteProtocol(localId: string): OutboxEffect {
    const effect = this.o.store.protocols.deleteDraft(localId);
    this.nudge();
    return effect;
  }

  listConflicts(): ConflictView[] {
    return listConflicts(this.o.store);
  }

  resolveConflict(localId: string, choice: ConflictChoice): Resolution {
    const resolution = resolveConflict(this.o.store, localId, choice);
    this.nudge();
    return resolution;
  }

  /** A local change: report the outbox, and push it soon when online. */
  private nudge(): void {
    this.emitCounts();
    if (!this.started || !this.o.connectivity.online) return;
    if (this.pushTimer !== null) this.timers.clearTimeout(this.pushTimer);
    this.pushTimer = this.timers.setTimeout(() => {
      this.pushTimer = null;
      this.background({ full: false, walkProtocols: false, ignoreBackoff: false });
    }, this.debounceMs);
  }

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
    try {
      this.emitState('pushing', null);
      push = await pushOutbox({
        store,
        client,
        clock,
        ignoreBackoff: req.ignoreBackoff,
        ...this.o.push,
        onEntry: () => this.emitCounts(),
      });
      if (push.stopped) {
        phase = push.stopped === 'offline' ? 'offline' : 'error';
        error = push.error;
      } else if (req.full) {
        this.emitState('pulling', null);
        // A create in doubt must be reconciled before its server copy may be mirrored as a
        // protocol of its own (that would hide it from the reconciliation and resend it).
        const createInDoubt = store.outbox
          .pending()
          .some((e) => e.state === 'in_doubt' && e.op === 'create');
        pull = await pullMirror({
          store,
          client,
          clock,
          ...this.o.pull,
          parts: { protocols: req.walkProtocols && !createInDoubt },
          onOrderChange: (change) =>
            this.o.bus.emit('order-status', {
              orderId: change.order.id,
              previous: change.previous?.status ?? null,
              status: change.order.status,
              order: change.order,
            }),
        });
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
    this.emitState(phase, error);
    return {
      kind: req.full ? 'full' : 'push',
      startedAt,
      finishedAt: syncedAt ?? new Date(clock.now()).toISOString(),
      push,
      pull,
      phase,
      error,
    };
  }

  private emitState(phase: SyncState['phase'], error: string | null): void {
    const state: SyncState = { phase, lastSyncedAt: this.lastSyncedAt, error };
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
