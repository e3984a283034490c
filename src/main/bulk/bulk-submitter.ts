import type { CreateOrderRequest, Product } from '../../shared/api';
import type { CoreEvents } from '../../shared/events';
import type { ApiClient } from '../api/client';
import { systemClock, type Clock } from '../clock';
import type { CoreEventBus } from '../events';
import type { LocalStore } from '../store';
import {
  BatchRejectedError,
  orderRequestFromProtocol,
  protocolLabel,
  type RejectedProtocol,
} from './order-requests';
import { BatchRun, type BatchRunContext } from '../sync/bulk-run';
import { KeyedThrottle } from './throttle';
import { realTimers, type Timers } from '../timers';

export interface BulkSubmitterOptions {
  store: LocalStore;
  client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
  bus: CoreEventBus;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  /** Creates in flight per batch unless submit() says otherwise. Default 4. */
  concurrency?: number;
  /** How long an in-doubt item waits before the server is read: a request may still be finishing there. Default 15 s. */
  reconcileGraceMs?: number;
  /** How far the server's clock may lag ours when matching creation times. Default 5 min. */
  skewMarginMs?: number;
  /** Least time between two batch-progress events of one batch. Default 100 ms (10/s). */
  progressIntervalMs?: number;
  log?: (line: string) => void;
}

export type BatchProgressEvent = CoreEvents['batch-progress'];

export const DEFAULT_CONCURRENCY = 4;
export const DEFAULT_RECONCILE_GRACE_MS = 15_000;
export const DEFAULT_SKEW_MARGIN_MS = 5 * 60_000;

/**
 * Durable bulk submission: a batch of saved protocols becomes one order each. Every state lives
 * in the store (BatchesRepo), so a kill at any moment and resume() continue with no duplicate and
 * no lost item: a create whose outcome is unknown is reconciled by reading the server before it
 * is ever sent again (bulk-reconcile.ts; the reasoning is in docs/decisions.md).
 */
export class BulkSubmitter {
  private readonly store: LocalStore;
  private readonly bus: CoreEventBus;
  private readonly concurrency: number;
  private readonly log: (line: string) => void;
  private readonly runs = new Map<string, { run: BatchRun; done: Promise<void> }>();
  private readonly throttle: KeyedThrottle;
  private readonly context: BatchRunContext;

  constructor(options: BulkSubmitterOptions) {
    this.store = options.store;
    this.bus = options.bus;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.log = options.log ?? (() => undefined);
    const clock = options.clock ?? systemClock;
    const timers = options.timers ?? realTimers;
    this.throttle = new KeyedThrottle(
      options.progressIntervalMs ?? 100,
      clock,
      timers,
      (batchId) => {
        // A progress event that cannot be read must not break the batch's work that asked for it.
        let event: BatchProgressEvent;
        try {
          event = this.progress(batchId);
        } catch (error) {
          this.log(`batch ${batchId}: progress not reported: ${String(error)}`);
          return;
        }
        this.bus.emit('batch-progress', event);
      },
    );
    this.context = {
      store: this.store,
      client: options.client,
      clock,
      timers,
      random: options.random ?? Math.random,
      graceMs: options.reconcileGraceMs ?? DEFAULT_RECONCILE_GRACE_MS,
      skewMarginMs: options.skewMarginMs ?? DEFAULT_SKEW_MARGIN_MS,
      log: this.log,
      changed: (batchId) => this.throttle.request(batchId),
    };
  }

  /**
   * Freezes one create request per protocol (its current draft, unsynced edits included) into a
   * new batch and starts it. Throws BatchRejectedError, creating nothing, when a protocol is
   * unknown, deleted or not a complete order; the error lists each one with its problems.
   */
  submit(protocolLocalIds: readonly string[], options: { concurrency?: number } = {}): string {
    const concurrency = Math.max(1, Math.trunc(options.concurrency ?? this.concurrency));
    // One transaction: each protocol is read once, and what is frozen is what was checked.
    const items: { protocolLocalId: string; request: CreateOrderRequest }[] = [];
    // Many protocols order the same products: each is read (and parsed) once per batch.
    const products = new Map<number, Product | null>();
    const product = (id: number): Product | null => {
      if (!products.has(id)) products.set(id, this.store.products.get(id));
      return products.get(id)!;
    };
    const batch = this.store.transaction(() => {
      const seen = new Set<string>();
      const rejected: RejectedProtocol[] = [];
      for (const localId of protocolLocalIds) {
        const protocol = this.store.protocols.orderSource(localId);
        if (!protocol) {
          rejected.push({
            protocolLocalId: localId,
            label: null,
            problems: [problem('no such protocol')],
          });
        } else if (seen.has(localId)) {
          rejected.push({
            protocolLocalId: localId,
            label: protocolLabel(protocol),
            problems: [problem('listed twice')],
          });
        } else {
          seen.add(localId);
          const built = orderRequestFromProtocol(protocol, product);
          if ('request' in built) items.push({ protocolLocalId: localId, request: built.request });
          else
            rejected.push({
              protocolLocalId: localId,
              label: protocolLabel(protocol),
              problems: built.problems,
            });
        }
      }
      if (rejected.length > 0) throw new BatchRejectedError(rejected);
      return this.store.batches.insertBatch(items, { concurrency });
    });
    this.log(`batch ${batch.id}: ${batch.total} protocol(s), concurrency ${concurrency}`);
    this.throttle.flush(batch.id);
    // The run sends the requests as frozen here (seq = position) instead of reading each back.
    this.start(batch.id, new Map(items.map((item, seq) => [seq, item.request])));
    return batch.id;
  }

  /**
   * After a start: every item that was being sent when the process ended is in doubt (it will be
   * reconciled before any resend), then every running batch continues. Returns their ids.
   */
  resume(): string[] {
    if (this.runs.size === 0) {
      const recovered = this.store.batches.recoverAfterCrash();
      if (recovered > 0)
        this.log(`${recovered} batch item(s) were being sent at the last exit: in doubt`);
    }
    const ids = this.store.batches
      .unfinished()
      .filter((b) => b.state === 'running')
      .map((b) => b.id);
    for (const id of ids) this.start(id);
    return ids;
  }

  /** Stops handing out items of the batch (creates in flight finish); it stays paused across restarts. */
  pause(batchId: string): void {
    this.store.batches.setState(batchId, 'paused');
    this.runs.get(batchId)?.run.pause();
    this.throttle.flush(batchId);
  }

  /** Continues a paused batch. */
  continue(batchId: string): void {
    this.store.batches.setState(batchId, 'running');
    this.throttle.flush(batchId);
    this.start(batchId);
  }

  progress(batchId: string): BatchProgressEvent {
    const batch = this.store.batches.get(batchId);
    if (!batch) throw new Error(`No batch ${batchId}.`);
    return { batchId, state: batch.state, ...this.store.batches.progress(batchId) };
  }

  /** Resolves when the batch's run ends (done, paused or stopped), with its progress then. */
  async settled(batchId: string): Promise<BatchProgressEvent> {
    await this.runs.get(batchId)?.done;
    return this.progress(batchId);
  }

  /** Stops every run after its creates in flight settle; batches stay running for the next resume(). */
  async stop(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const { run } of runs) run.stop();
    await Promise.all(runs.map((r) => r.done));
    this.throttle.clear();
  }

  private start(batchId: string, frozen?: Map<number, CreateOrderRequest>): void {
    const existing = this.runs.get(batchId);
    if (existing) {
      existing.run.wake();
      return;
    }
    const batch = this.store.batches.get(batchId);
    if (!batch) throw new Error(`No batch ${batchId}.`);
    const run = new BatchRun(this.context, batchId, batch.concurrency, frozen);
    const done = run
      .run()
      .catch((error: unknown) => this.log(`batch ${batchId} stopped on an error: ${String(error)}`))
      .finally(() => {
        this.runs.delete(batchId);
        this.throttle.flush(batchId);
      });
    this.runs.set(batchId, { run, done });
  }
}

const problem = (message: string) => ({ path: '', message });
