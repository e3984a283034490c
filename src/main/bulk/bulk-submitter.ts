import type { CreateOrderRequest, ProductRead } from '@shared/api';
import type { ActivityDetail } from '@shared/activity-views';
import type { ActivityLog } from '../activity/activity-log';
import type { CoreEvents } from '@shared/core-events';
import type { Clock } from '../clock';
import type { CoreEventBus } from '../core-event-bus';
import type { JobChanged, JobRunner } from '../jobs/job-runner';
import { LATE_ORDER_WINDOW_MS, type DuplicateOrders } from './duplicate-orders';
import type { OrderActions } from '../orders/order-actions';
import { DEFAULT_ORDER_CONCURRENCY, OrderJobData } from '../orders/order-job';
import type { BatchStore } from './batch-store';
import type { Timers } from '../timers';
import {
  BatchRejectedError,
  RetryRefusedError,
  orderRequestFromProtocol,
  protocolLabel,
  type RejectedProtocol,
} from '../orders/order-requests';
import { KeyedThrottle } from './throttle';

export interface BulkSubmitterOptions {
  store: BatchStore;
  /** Records each batch submitted and each item sent again, with its own write. */
  activity: Pick<ActivityLog, 'record' | 'actor'>;
  /** The runner that sends the batches' order jobs. */
  jobs: Pick<JobRunner, 'wake'>;
  /** Looks at a settled batch's orders for possible duplicates. */
  duplicates: Pick<DuplicateOrders, 'scanBatch'>;
  /** Cancels this desk's repeats of another desk's orders made at the same moment. */
  orders: Pick<OrderActions, 'cancelOrder' | 'refreshOrder'>;
  bus: CoreEventBus;
  clock: Clock;
  timers: Timers;
  /** Order creates in flight per batch unless submit() says otherwise. */
  concurrency?: number;
  /** Least time between two batch-progress events of one batch. Default 100 ms (10/s). */
  progressIntervalMs?: number;
  log?: (line: string) => void;
}

export type BatchProgressEvent = CoreEvents['batch-progress'];

/**
 * Bulk submission: a batch of saved protocols becomes one order job each, frozen in one
 * transaction; the job runner sends them (durably: a kill at any moment loses nothing and
 * duplicates nothing) and this class follows them: progress events, pause and continue, and the
 * batch's end.
 */
export class BulkSubmitter {
  private readonly throttle: KeyedThrottle;
  private readonly waiters = new Map<string, (() => void)[]>();
  private readonly log: (line: string) => void;

  constructor(private readonly o: BulkSubmitterOptions) {
    this.log = o.log ?? (() => undefined);
    this.throttle = new KeyedThrottle(o.progressIntervalMs ?? 100, o.clock, o.timers, (batchId) =>
      this.report(batchId),
    );
  }

  /**
   * Freezes one create request per protocol (its current draft, unsynced edits included) into a
   * new running batch. Throws BatchRejectedError, creating nothing, when a protocol is unknown,
   * deleted, listed twice or not a complete order; the error lists each one with its problems.
   */
  submit(
    protocolLocalIds: readonly string[],
    options: {
      concurrency?: number;
      /**
       * Per protocol, the orders of the same patient and content the user chose to order again
       * beside (the review showed them): the create is not held back for those.
       */
      allowDuplicateOf?: Readonly<Record<string, readonly string[]>>;
      /** The batch's name as the user gave it; none: the lists show its start date. */
      name?: string;
      /** What the activity record says it came from: the batch review, or Order now. */
      source?: 'batch' | 'protocol';
    } = {},
  ): string {
    const { store } = this.o;
    const concurrency = Math.max(
      1,
      Math.trunc(options.concurrency ?? this.o.concurrency ?? DEFAULT_ORDER_CONCURRENCY),
    );
    // Many protocols order the same products: each is read (and parsed) once per batch.
    const products = new Map<number, ProductRead | null>();
    const product = (id: number): ProductRead | null => {
      if (!products.has(id)) products.set(id, store.products.get(id));
      return products.get(id)!;
    };
    // One transaction: what is frozen is what was checked.
    const batch = store.transaction(() => {
      const items: {
        protocolLocalId: string;
        request: CreateOrderRequest;
        allowDuplicateOf?: readonly string[];
      }[] = [];
      const rejected: RejectedProtocol[] = [];
      const seen = new Set<string>();
      for (const localId of protocolLocalIds) {
        const protocol = store.protocols.orderSource(localId);
        const label = protocol ? protocolLabel(protocol) : null;
        if (!protocol)
          rejected.push({
            protocolLocalId: localId,
            label,
            problems: [problem('no such protocol')],
          });
        else if (seen.has(localId))
          rejected.push({ protocolLocalId: localId, label, problems: [problem('listed twice')] });
        else {
          seen.add(localId);
          const built = orderRequestFromProtocol(protocol, product);
          const allowDuplicateOf = options.allowDuplicateOf?.[localId];
          if ('request' in built)
            items.push({
              protocolLocalId: localId,
              request: built.request,
              ...(allowDuplicateOf ? { allowDuplicateOf } : {}),
            });
          else rejected.push({ protocolLocalId: localId, label, problems: built.problems });
        }
      }
      if (rejected.length > 0) throw new BatchRejectedError(rejected);
      const inserted = store.batches.insertBatch(items, {
        concurrency,
        name: options.name ?? null,
        actor: this.o.activity.actor(),
      });
      this.recordSubmitted(inserted.id, items, {
        source: options.source ?? 'batch',
        concurrency,
        named: Boolean(options.name),
      });
      return inserted;
    });
    this.log(`batch ${batch.id}: ${batch.total} protocol(s), concurrency ${concurrency}`);
    this.throttle.flush(batch.id);
    this.o.jobs.wake();
    return batch.id;
  }

  /**
   * A batch of one order already built and checked (bulk/create-order.ts: an order written
   * from scratch, frozen with no protocol), sent once. `what` names it in the log.
   */
  submitBuilt(
    item: {
      protocolLocalId: null;
      request: CreateOrderRequest;
      allowDuplicateOf?: readonly string[];
    },
    what: string,
  ): string {
    const { store } = this.o;
    const batch = store.transaction(() => {
      const inserted = store.batches.insertBatch([item], {
        concurrency: 1,
        actor: this.o.activity.actor(),
      });
      this.recordSubmitted(inserted.id, [item], { source: 'scratch', concurrency: 1 });
      return inserted;
    });
    this.log(`batch ${batch.id}: ${what}`);
    this.throttle.flush(batch.id);
    this.o.jobs.wake();
    return batch.id;
  }

  /**
   * Sends a rejected item of a batch again, frozen anew from its protocol's current draft (so a
   * fix made in the editor applies), and reopens its batch. Throws RetryRefusedError, changing
   * nothing, when the item is not rejected, its protocol is gone (or it had none), or the draft
   * is still not a complete order.
   */
  retryItem(batchId: string, seq: number, options: { allowDuplicates?: boolean } = {}): void {
    const { store } = this.o;
    store.transaction(() => {
      const item = store.batches.item(batchId, seq);
      if (!item) throw new RetryRefusedError('no-item', `This batch has no item ${seq + 1}.`);
      if (item.state !== 'rejected')
        throw new RetryRefusedError(
          'not-rejected',
          `Only a rejected item can be sent again; this one is ${item.state === 'done' ? 'created' : item.state.replace('_', ' ')}.`,
        );
      if (options.allowDuplicates) {
        // "Send anyway": what was held back goes as it was frozen; the user saw what it may repeat.
        if (item.error?.kind !== 'duplicate')
          throw new RetryRefusedError(
            'not-held',
            'Only an order held back as a possible duplicate can be sent anyway.',
          );
        const held = store.jobs.get(item.jobId)!;
        const data = OrderJobData.parse(held.data);
        store.batches.retryItem(batchId, seq, { ...data, allowDuplicates: true });
        this.recordRetried(batchId, data, true);
        return;
      }
      const protocol = item.protocolLocalId
        ? store.protocols.orderSource(item.protocolLocalId)
        : null;
      if (!protocol || protocol.deleted)
        throw new RetryRefusedError(
          'no-protocol',
          item.protocolLocalId
            ? 'The protocol of this item no longer exists here, so it cannot be sent again.'
            : 'This order was written from scratch; write it again in the editor to send it.',
        );
      const built = orderRequestFromProtocol(protocol, (id) => store.products.get(id));
      if (!('request' in built))
        throw new RetryRefusedError(
          'problems',
          `${protocolLabel(protocol)} is not a complete order yet: fix it in the editor, then retry.`,
          built.problems,
        );
      const data = { protocolLocalId: protocol.localId, request: built.request };
      store.batches.retryItem(batchId, seq, data);
      this.recordRetried(batchId, data, false);
    });
    this.log(`batch ${batchId}: item ${seq} sent again`);
    this.throttle.flush(batchId);
    this.o.jobs.wake();
  }

  /** The activity entry of a batch submitted: its protocols and their patients, by id. */
  private recordSubmitted(
    batchId: string,
    items: readonly { protocolLocalId: string | null; request: CreateOrderRequest }[],
    detail: ActivityDetail,
  ): void {
    this.o.activity.record({
      action: 'batch-submitted',
      subjects: {
        batches: [batchId],
        protocols: items.flatMap((i) => (i.protocolLocalId ? [i.protocolLocalId] : [])),
        patients: items.map((i) => i.request.customer.sourceId),
      },
      detail: { ...detail, count: items.length },
    });
  }

  private recordRetried(
    batchId: string,
    data: { protocolLocalId: string | null; request: CreateOrderRequest },
    sendAnyway: boolean,
  ): void {
    this.o.activity.record({
      action: 'batch-item-retried',
      subjects: {
        batches: [batchId],
        protocols: data.protocolLocalId ? [data.protocolLocalId] : [],
        patients: [data.request.customer.sourceId],
      },
      detail: { sendAnyway },
    });
  }

  /** No more of the batch's jobs are sent (those in flight finish); it stays paused across restarts. */
  pause(batchId: string): void {
    this.o.store.batches.setState(batchId, 'paused');
    this.throttle.flush(batchId);
  }

  /** Continues a paused batch. */
  continue(batchId: string): void {
    this.o.store.batches.setState(batchId, 'running');
    this.throttle.flush(batchId);
    this.o.jobs.wake();
  }

  progress(batchId: string): BatchProgressEvent {
    const batch = this.o.store.batches.get(batchId);
    if (!batch) throw new Error(`No batch ${batchId}.`);
    return { batchId, state: batch.state, ...this.o.store.batches.progress(batchId) };
  }

  /**
   * At start: a batch whose last job settled just before the app ended was not marked done yet.
   * Returns the unfinished batches (the runner continues the running ones).
   */
  start(): string[] {
    const unfinished = this.o.store.batches.list().filter((b) => b.state !== 'done');
    for (const b of unfinished) this.o.store.batches.finishIfComplete(b.id);
    this.rescan({ read: true });
    return unfinished
      .filter((b) => this.o.store.batches.get(b.id)?.state !== 'done')
      .map((b) => b.id);
  }

  /**
   * Looks again for possible duplicates of the batches done recently, or never looked at: an
   * order that committed late, or another desk's, shows up after the batch's end. `read`: read
   * the server's orders of each batch's time first; else what the mirror holds (after a pull).
   */
  rescan(options: { read: boolean }): void {
    let ids: string[];
    try {
      ids = this.o.store.batches.toScanForDuplicates(LATE_ORDER_WINDOW_MS);
    } catch (error) {
      this.log(`batches to look at for duplicates could not be read: ${String(error)}`);
      return;
    }
    for (const id of ids) this.scan(id, options.read);
  }

  /** Looks at a batch's orders for possible duplicates; a find is announced (progress). */
  private scan(batchId: string, read: boolean): void {
    this.o.duplicates.scanBatch(batchId, { read }).then(
      (found) => {
        if (found > 0) {
          this.log(`batch ${batchId}: ${found} possible duplicate order(s)`);
          this.throttle.flush(batchId);
        }
        return this.cancelRepeats();
      },
      (error: unknown) =>
        this.log(`batch ${batchId}: not looked at for duplicates yet: ${String(error)}`),
    );
  }

  /** The cancels under way (one pass at a time; a pass asked for meanwhile runs after it). */
  private cancelling: Promise<void> | null = null;
  private cancelAgain = false;

  /**
   * Cancels this desk's orders found to repeat another desk's order made at the same moment
   * (DuplicateOrders.scanBatch marks them), each while it is NEW and only while the order it
   * repeats still stands. A failure to reach the server leaves it to the next pass (the next
   * pull's rescan); a refusal (already processing) leaves it to a person.
   */
  cancelRepeats(): Promise<void> {
    if (this.cancelling) {
      this.cancelAgain = true;
      return this.cancelling;
    }
    this.cancelling = (async () => {
      do {
        this.cancelAgain = false;
        const batches = new Set<string>();
        for (const d of this.o.store.orders.pendingAutoCancels()) {
          await this.cancelRepeat(d);
          batches.add(d.batchId);
        }
        // Each batch tells of its pass once: one notice counts all its cancelled repeats.
        for (const batchId of batches) this.throttle.flush(batchId);
      } while (this.cancelAgain);
    })().finally(() => {
      this.cancelling = null;
    });
    return this.cancelling;
  }

  private async cancelRepeat(d: { orderId: string; of: string; batchId: string }): Promise<void> {
    const { store } = this.o;
    try {
      // Never both: the order it repeats must still stand, as the server says now.
      const kept = await this.o.orders.refreshOrder(d.of);
      if (kept.status === 'CANCELLED') {
        store.orders.settleAutoCancel(d.orderId, null);
      } else {
        const outcome = await this.o.orders.cancelOrder(d.orderId, { repeatOf: d.of });
        const done = outcome.ok || outcome.reason === 'already-cancelled';
        store.orders.settleAutoCancel(d.orderId, done ? 'done' : 'refused');
        this.log(
          `batch ${d.batchId}: a repeat of another desk's order ${done ? 'cancelled' : 'could not be cancelled'}`,
        );
      }
    } catch (error) {
      this.log(`batch ${d.batchId}: a repeat not cancelled yet: ${String(error)}`);
    }
  }

  /** Resolves with the batch's progress once it is done (at once when it is). */
  async settled(batchId: string): Promise<BatchProgressEvent> {
    this.o.store.batches.finishIfComplete(batchId);
    if (this.o.store.batches.get(batchId)?.state !== 'done') {
      await new Promise<void>((resolve) =>
        this.waiters.set(batchId, [...(this.waiters.get(batchId) ?? []), resolve]),
      );
    }
    return this.progress(batchId);
  }

  /** The job runner's news: a job of a batch changed state. */
  readonly onJobChanged = (change: JobChanged): void => {
    if (change.batchId === null) return;
    if (change.state === 'sending') this.throttle.request(change.batchId);
    else this.settle(change.batchId);
  };

  /** Stops the progress events (the runner stops on its own). */
  stop(): void {
    this.throttle.clear();
  }

  /** A job of the batch settled: the batch may be done (reported at once), else progress soon. */
  private settle(batchId: string): void {
    try {
      if (this.o.store.batches.finishIfComplete(batchId)) {
        this.throttle.flush(batchId);
        this.log(`batch ${batchId} done`);
        this.scan(batchId, true);
        for (const resolve of this.waiters.get(batchId) ?? []) resolve();
        this.waiters.delete(batchId);
        return;
      }
    } catch (error) {
      this.log(`batch ${batchId}: could not be finished: ${String(error)}`);
    }
    this.throttle.request(batchId);
  }

  private report(batchId: string): void {
    // A progress event that cannot be read must not break the work that asked for it.
    let event: BatchProgressEvent;
    try {
      event = this.progress(batchId);
    } catch (error) {
      this.log(`batch ${batchId}: progress not reported: ${String(error)}`);
      return;
    }
    this.o.bus.emit('batch-progress', event);
  }
}

const problem = (message: string) => ({ path: '', message });
