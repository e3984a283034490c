import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Money, OrderStatusRead, type CreateOrderRequest } from '@shared/api';
import type { ActivityActor } from '@shared/activity-views';
import { tallyOrders, type OrderOutcomeView } from '@shared/order-outcome';
import type { Clock } from '../clock';
import type { JobsRepo } from '../jobs/jobs-repo';
import type { StoredJob } from '../jobs/job-model';
import { BATCH_ORDERS_SETTLED, OrderJobData, enqueueOrderJob } from '../orders/order-job';
import type { OrdersRepo } from '../orders/orders-repo';
import type { Db } from '../db/db';
import { StoreError } from '../db/errors';
import { parseRow, prepareCached, runTransaction } from '../db/rows';
import { BatchRow, type Batch, type BatchItem, type BatchProgress } from './batch-model';

const OrderPriceRow = z.object({ status: OrderStatusRead, price: Money.nullable() });
const SeqStatusRow = z.object({ seq: z.int(), status: OrderStatusRead });

/**
 * Bulk submissions: a batch is a grouping of order jobs (one per protocol, in order) with a
 * state (running, paused, done) and a concurrency the job runner honours. The jobs carry the
 * rest: what each item sent, its state and the order it made.
 */
export class BatchesRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly jobs: JobsRepo,
    private readonly orders: OrdersRepo,
  ) {}

  /**
   * A running batch of the given create requests, one queued order job each, in one transaction
   * (the caller's, when it has read the protocols in it). All or nothing.
   */
  insertBatch(
    items: readonly {
      protocolLocalId: string | null;
      request: CreateOrderRequest;
      /** Orders of the same patient and content the user chose to order again beside. */
      allowDuplicateOf?: readonly string[];
    }[],
    options: {
      concurrency: number;
      name?: string | null;
      /** Who submitted it: the orders its jobs create later are recorded as theirs. */
      actor?: ActivityActor | null;
    },
  ): Batch {
    if (items.length === 0)
      throw new StoreError('invalid-state', 'A batch needs at least one order.');
    const id = randomUUID();
    runTransaction(this.db, () => {
      prepareCached(
        this.db,
        `INSERT INTO batches (id, created_at, state, concurrency, total, name, actor)
         VALUES (?, ?, 'running', ?, ?, ?, ?)`,
      ).run(
        id,
        this.clock.now(),
        options.concurrency,
        items.length,
        options.name ?? null,
        options.actor ? JSON.stringify(options.actor) : null,
      );
      items.forEach((item, seq) => {
        enqueueOrderJob(this.jobs, item, { batchId: id, batchSeq: seq });
      });
    });
    return this.require(id);
  }

  get(batchId: string): Batch | null {
    const row = prepareCached(this.db, 'SELECT * FROM batches WHERE id = ?').get(batchId);
    return row ? parseRow(BatchRow, row, 'batches', `id=${batchId}`) : null;
  }

  /** Who submitted the batch, or null (none kept, or no such batch). */
  actorOf(batchId: string): ActivityActor | null {
    return this.get(batchId)?.actor ?? null;
  }

  /** Batches newest first. */
  list(): Batch[] {
    return prepareCached(this.db, 'SELECT * FROM batches ORDER BY created_at DESC, id')
      .all()
      .map((row) => parseRow(BatchRow, row, 'batches', `id=${(row as { id: string }).id}`));
  }

  /** True while a batch is running: neither finished nor paused (its orders are being sent). */
  anyRunning(): boolean {
    return (
      prepareCached(this.db, "SELECT 1 FROM batches WHERE state = 'running' LIMIT 1").get() !==
      undefined
    );
  }

  /** Pauses (no job of it is claimed) or resumes a batch that is not done. */
  setState(batchId: string, state: 'running' | 'paused'): Batch {
    prepareCached(this.db, "UPDATE batches SET state = ? WHERE id = ? AND state <> 'done'").run(
      state,
      batchId,
    );
    return this.require(batchId); // not found throws; done stays done
  }

  /**
   * Marks the batch done when every job is done or rejected. True only for the call that marked
   * it done, so that its end is announced once.
   */
  finishIfComplete(batchId: string): boolean {
    return (
      prepareCached(
        this.db,
        `UPDATE batches SET state = 'done', finished_at = ? WHERE id = ? AND state <> 'done'
           AND ${BATCH_ORDERS_SETTLED}`,
      ).run(this.clock.now(), batchId).changes === 1
    );
  }

  /** The batch's orders were looked at for possible duplicates (see DuplicateOrders.scanBatch). */
  markDuplicatesChecked(batchId: string): void {
    prepareCached(this.db, 'UPDATE batches SET duplicates_checked_at = ? WHERE id = ?').run(
      this.clock.now(),
      batchId,
    );
  }

  /**
   * Done batches still worth looking at for possible duplicates: never looked at, or finished
   * within the last `windowMs` (an order committed late shows up after the batch's end).
   */
  toScanForDuplicates(windowMs: number): string[] {
    return (
      prepareCached(
        this.db,
        `SELECT id FROM batches WHERE state = 'done'
           AND (duplicates_checked_at IS NULL OR finished_at >= ?) ORDER BY created_at`,
      ).all(this.clock.now() - windowMs) as { id: string }[]
    ).map((r) => r.id);
  }

  /**
   * Sends a rejected item again with a new request (its protocol's current draft): its job is
   * queued again and the batch reopened when it was done (running, finishedAt cleared); a paused
   * batch stays paused. One transaction (the caller's, when it has read the protocol).
   */
  retryItem(batchId: string, seq: number, data: OrderJobData): Batch {
    runTransaction(this.db, () => {
      const job = this.jobs.atBatchSeq(batchId, seq);
      if (!job) throw new StoreError('not-found', `Batch ${batchId} has no item ${seq}.`);
      this.jobs.requeueRejected(job.id, data);
      prepareCached(
        this.db,
        "UPDATE batches SET state = 'running', finished_at = NULL WHERE id = ? AND state = 'done'",
      ).run(batchId);
    });
    return this.require(batchId);
  }

  /** The items of a batch in order. */
  items(batchId: string): BatchItem[] {
    const duplicates = this.duplicatesBySeq(batchId);
    const statuses = this.orderStatusBySeq(batchId);
    return this.jobs.ofBatch(batchId).map((job) => this.toItem(batchId, job, duplicates, statuses));
  }

  /** One item of a batch, or null. */
  item(batchId: string, seq: number): BatchItem | null {
    const job = this.jobs.atBatchSeq(batchId, seq);
    return (
      job &&
      this.toItem(batchId, job, this.duplicatesBySeq(batchId), this.orderStatusBySeq(batchId))
    );
  }

  private duplicatesBySeq(batchId: string): Map<number, BatchItem['possibleDuplicates']> {
    const bySeq = new Map<number, BatchItem['possibleDuplicates']>();
    for (const d of this.orders.possibleDuplicates(batchId))
      bySeq.set(d.seq, [
        ...(bySeq.get(d.seq) ?? []),
        { orderId: d.orderId, of: d.of, status: d.status, autoCancel: d.autoCancel },
      ]);
    return bySeq;
  }

  private toItem(
    batchId: string,
    job: StoredJob,
    duplicates: Map<number, BatchItem['possibleDuplicates']>,
    statuses: Map<number, OrderStatusRead>,
  ): BatchItem {
    const data = parseRow(OrderJobData, job.data, 'jobs', `id=${job.id}`);
    return {
      batchId,
      seq: job.batchSeq ?? 0,
      jobId: job.id,
      protocolLocalId: data.protocolLocalId,
      request: data.request,
      state: job.state,
      orderId: job.resultId,
      orderStatus: statuses.get(job.batchSeq ?? 0) ?? null,
      error: job.error,
      attempts: job.attempts,
      sentAt: job.sentAt,
      possibleDuplicates: duplicates.get(job.batchSeq ?? 0) ?? [],
    };
  }

  /**
   * What became of the batch's orders as the app knows them now (each created order's mirrored
   * status and totalPrice, kept by the poller; one not mirrored yet is not counted): standing,
   * cancelled apart, and refused (held-back items were never sent, so they are not refusals).
   */
  outcome(batchId: string): OrderOutcomeView {
    const rows = prepareCached(
      this.db,
      `SELECT o.status AS status, json_extract(o.body, '$.totalPrice') AS price FROM jobs j
         JOIN orders o ON o.id = j.result_id
        WHERE j.batch_id = ? AND j.kind = 'order' AND j.state = 'done'`,
    ).all(batchId);
    const orders = rows.map((row) => {
      const r = parseRow(OrderPriceRow, row, 'orders', `batch=${batchId}`);
      return { status: r.status, totalPrice: r.price };
    });
    const c = this.jobs.counts({ batchId });
    return tallyOrders(orders, c.rejected - this.jobs.rejectedAs(batchId, 'duplicate'));
  }

  /** Each created order's status as mirrored, by the item's seq (not mirrored yet: absent). */
  private orderStatusBySeq(batchId: string): Map<number, OrderStatusRead> {
    const rows = prepareCached(
      this.db,
      `SELECT j.batch_seq AS seq, o.status AS status FROM jobs j JOIN orders o ON o.id = j.result_id
        WHERE j.batch_id = ? AND j.kind = 'order' AND j.state = 'done'`,
    ).all(batchId);
    return new Map(
      rows.map((row) => {
        const r = parseRow(SeqStatusRow, row, 'orders', `batch=${batchId}`);
        return [r.seq, r.status];
      }),
    );
  }

  progress(batchId: string): BatchProgress {
    const c = this.jobs.counts({ batchId });
    return {
      total: c.queued + c.sending + c.in_doubt + c.done + c.rejected,
      queued: c.queued,
      sending: c.sending,
      inDoubt: c.in_doubt,
      created: c.done,
      rejected: c.rejected,
      held: this.jobs.rejectedAs(batchId, 'duplicate'),
      ...(({ open, cancelled }) => ({ possibleDuplicates: open, repeatsCancelled: cancelled }))(
        this.orders.possibleDuplicateCount(batchId),
      ),
    };
  }

  private require(batchId: string): Batch {
    const batch = this.get(batchId);
    if (!batch) throw new StoreError('not-found', `No batch ${batchId}.`);
    return batch;
  }
}
