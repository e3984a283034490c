import { normalizeOrder, type CreateOrderRequest } from '../../shared/api';
import type { ApiClient } from '../api/client';
import type { Clock } from '../clock';
import type { BatchItem, LocalStore } from '../store';
import { RunLedger, type SendItem, type UnrecordedItem } from './bulk-commit';
import { classifyCreateFailure, retryDelayMs, type CreateFailure } from '../orders/create-failure';
import { reconcileInDoubt } from '../orders/order-reconcile';
import { Waiter, type Timers } from '../timers';

/** What a batch run works with (the BulkSubmitter's collaborators and settings). */
export interface BatchRunContext {
  store: LocalStore;
  client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
  clock: Clock;
  timers: Timers;
  random: () => number;
  graceMs: number;
  skewMarginMs: number;
  log: (line: string) => void;
  /** An item of the batch changed state (for progress events). */
  changed: (batchId: string) => void;
}

/** Re-check for work when nothing is scheduled yet the batch is unfinished (items sent elsewhere). */
const IDLE_RECHECK_MS = 1_000;

/**
 * One batch being worked on: a scheduler loop that keeps up to `concurrency` workers, each sending
 * one create at a time (each item claimed durably first), settles each outcome in the store, and
 * reconciles in-doubt items with one read of the server per round before any of them is sent
 * again. Claims and the records of created orders go through the run's ledger (RunLedger), which
 * commits many of them at once; any outcome other than created ends the worker, and the loop
 * takes over.
 */
export class BatchRun {
  private readonly waiter: Waiter;
  private readonly ledger: RunLedger;
  private readonly inFlight = new Set<Promise<void>>();
  /** The items whose create is being sent now. */
  private readonly sending = new Set<number>();
  private reconciling: Promise<void> | null = null;
  private reconcileFailures = 0;
  private reconcileRetryAt = 0;
  /** False once the store showed no in-doubt item (saves a query per completion); true when one may exist. */
  private mayHaveInDoubt = true;
  private paused = false;
  private stopping = false;

  constructor(
    private readonly ctx: BatchRunContext,
    readonly batchId: string,
    private readonly concurrency: number,
    /**
     * The requests of the batch's items by seq, as this process froze them (submit): claims then
     * need not read and parse them back. Each is dropped once its item is settled. Empty after a
     * restart (resume): claims read them from the store.
     */
    private readonly frozen: Map<number, CreateOrderRequest> = new Map(),
  ) {
    this.waiter = new Waiter(ctx.timers);
    this.ledger = new RunLedger({
      store: ctx.store,
      clock: ctx.clock,
      timers: ctx.timers,
      batchId,
      frozen,
      recorded: () => ctx.changed(batchId),
      unrecorded: (items) => this.settleUnrecorded(items),
      claimed: () => this.waiter.wake(),
      claimsLost: () => this.settleLostClaims(),
      log: (line) => ctx.log(`batch ${batchId}: ${line}`),
    });
  }

  /** Something may be due: look again now. */
  wake(): void {
    this.waiter.wake();
  }

  /** Stop claiming because the batch was paused. */
  pause(): void {
    this.paused = true;
    this.waiter.wake();
  }

  /** Stop claiming because the submitter stops. */
  stop(): void {
    this.stopping = true;
    this.waiter.wake();
  }

  /** Runs until the batch is done, paused or stopped; creates in flight settle first. */
  async run(): Promise<void> {
    const { batches } = this.ctx.store;
    try {
      while (!this.stopping && !this.paused) {
        let launched = false;
        while (this.inFlight.size < this.concurrency) {
          const item = this.ledger.take();
          if (!item) break;
          launched = true;
          const sending: Promise<void> = this.work(item).finally(() => {
            this.inFlight.delete(sending);
            this.waiter.wake();
          });
          this.inFlight.add(sending);
          this.ctx.changed(this.batchId);
        }
        const now = this.ctx.clock.now();
        const inDoubt = this.mayHaveInDoubt ? batches.itemsInState(this.batchId, ['in_doubt']) : [];
        if (inDoubt.length === 0 && !this.reconciling) this.mayHaveInDoubt = false;
        const ready = inDoubt.filter((i) => i.updatedAt + this.ctx.graceMs <= now);
        if (!this.reconciling && ready.length > 0 && now >= this.reconcileRetryAt) {
          this.reconciling = this.reconcile(ready)
            .catch((error: unknown) => this.ctx.log(`batch ${this.batchId}: ${String(error)}`))
            .finally(() => {
              this.reconciling = null;
              this.waiter.wake();
            });
          continue;
        }
        if (this.inFlight.size === 0 && !this.reconciling && !launched) {
          await this.ledger.flush(); // created items are 'sending' until recorded
          if (batches.finishIfComplete(this.batchId)) {
            this.ctx.log(`batch ${this.batchId} done`);
            break;
          }
          if (batches.get(this.batchId)?.state !== 'running') break; // paused elsewhere
        }
        await this.waiter.wait(this.nextWakeDelay(inDoubt, now, launched));
      }
    } finally {
      await Promise.all([...this.inFlight, this.reconciling]);
      await this.ledger.release();
    }
  }

  private nextWakeDelay(inDoubt: BatchItem[], now: number, launched: boolean): number {
    let next = Infinity;
    if (this.inFlight.size < this.concurrency) {
      const due = this.ctx.store.batches.nextAttemptAt(this.batchId);
      if (due !== null) next = Math.min(next, due);
    }
    if (!this.reconciling) {
      for (const item of inDoubt) {
        next = Math.min(next, Math.max(item.updatedAt + this.ctx.graceMs, this.reconcileRetryAt));
      }
    }
    if (next === Infinity)
      return this.inFlight.size > 0 || this.reconciling ? Infinity : IDLE_RECHECK_MS;
    // Due already but nothing could be claimed (another process took it): do not spin.
    return Math.max(next - now, launched ? 0 : 1);
  }

  /** One worker: sends `first`, then the ledger's next item after each created order. */
  private async work(first: SendItem): Promise<void> {
    let item: SendItem | null = first;
    while (item) {
      const current: SendItem = item;
      this.sending.add(current.seq);
      const created = await this.send(current)
        .catch((error: unknown) => {
          // A store failure here leaves the item 'sending': in doubt at the next start.
          this.ctx.log(`batch item ${current.batchId}#${current.seq}: ${String(error)}`);
          return false;
        })
        .finally(() => this.sending.delete(current.seq));
      item = created && !this.stopping && !this.paused ? this.ledger.take() : null;
    }
  }

  /**
   * One create: its outcome decides the item's next state; nothing here ever drops an item.
   * True when the order was created (its record is queued in the ledger).
   */
  private async send(item: SendItem): Promise<boolean> {
    const { batches } = this.ctx.store;
    let outcome: CreateFailure;
    try {
      const order = normalizeOrder(await this.ctx.client.createOrder(item.request));
      this.ledger.created(item, order);
      return true;
    } catch (error) {
      outcome = classifyCreateFailure(error);
    }
    if (outcome.kind === 'rejected') {
      batches.markRejected(item.batchId, item.seq, outcome.error);
      this.frozen.delete(item.seq);
    } else if (outcome.kind === 'in-doubt') {
      batches.markInDoubt(item.batchId, item.seq, outcome.error);
      this.mayHaveInDoubt = true;
    } else {
      const delay = retryDelayMs(item.attempts, outcome.retryAfterMs, this.ctx.random);
      batches.requeue(item.batchId, item.seq, {
        nextAttemptAt: this.ctx.clock.now() + delay,
        error: outcome.error,
      });
    }
    this.ctx.changed(item.batchId);
    return false;
  }

  /**
   * Created orders whose record failed (it should not happen): their items are in doubt, and
   * reconciliation will find the orders on the server.
   */
  private settleUnrecorded(items: UnrecordedItem[]): void {
    for (const { item, error } of items)
      this.ctx.log(`batch item ${item.batchId}#${item.seq}: not recorded: ${String(error)}`);
    this.toReconcile(
      items.map(({ item }) => item.seq),
      'The order was created but could not be recorded here.',
    );
  }

  /**
   * A claim's answer was lost (RunLedger): the items 'sending' that are neither being sent nor
   * held by the ledger may have been claimed by it. Not one of them was sent, yet they are settled
   * as after a crash: in doubt, so that reconciliation reads the server before any is sent.
   */
  private settleLostClaims(): void {
    const known = new Set([...this.sending, ...this.ledger.heldSeqs()]);
    let unknown: number[];
    try {
      unknown = this.ctx.store.batches
        .itemsInState(this.batchId, ['sending'])
        .map((item) => item.seq)
        .filter((seq) => !known.has(seq));
    } catch (error) {
      // They stay 'sending': in doubt at the next start.
      this.ctx.log(`batch ${this.batchId}: claims not settled: ${String(error)}`);
      return;
    }
    this.toReconcile(
      unknown,
      'Its claim was not confirmed; the server is checked before it is sent.',
    );
  }

  /** Items in doubt, for reconciliation; one that cannot be marked stays 'sending' (in doubt at the next start). */
  private toReconcile(seqs: readonly number[], message: string): void {
    for (const seq of seqs) {
      try {
        this.ctx.store.batches.markInDoubt(this.batchId, seq, { kind: 'transport', message });
      } catch (error) {
        this.ctx.log(`batch item ${this.batchId}#${seq} stays sending: ${String(error)}`);
      }
    }
    this.mayHaveInDoubt = true;
    this.waiter.wake();
    this.ctx.changed(this.batchId);
  }

  private async reconcile(items: BatchItem[]): Promise<void> {
    const { batches } = this.ctx.store;
    try {
      const result = await reconcileInDoubt(
        {
          store: this.ctx.store,
          client: this.ctx.client,
          skewMarginMs: this.ctx.skewMarginMs,
          log: this.ctx.log,
        },
        items,
      );
      for (const { item, order } of result.found) {
        try {
          batches.markCreated(item.batchId, item.seq, order);
        } catch (error) {
          // Claimed meanwhile by another item (order_id UNIQUE): stays in doubt for the next round.
          this.ctx.log(`batch item ${item.batchId}#${item.seq} stays in doubt: ${String(error)}`);
        }
      }
      for (const item of result.notFound) {
        batches.requeue(item.batchId, item.seq, { nextAttemptAt: null, error: item.error });
      }
      this.reconcileFailures = 0;
    } catch (error) {
      this.reconcileFailures++;
      this.reconcileRetryAt =
        this.ctx.clock.now() + retryDelayMs(this.reconcileFailures, undefined, this.ctx.random);
      this.ctx.log(
        `batch ${this.batchId}: reconciliation failed, items stay in doubt: ${String(error)}`,
      );
    }
    this.ctx.changed(this.batchId);
  }
}
