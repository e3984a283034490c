import { randomUUID } from 'node:crypto';
import { CreateOrderRequest, type AppOrder } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { StoreError } from '../store/errors';
import type { OrdersRepo } from '../orders/orders-repo';
import type { LocalProtocol } from '../protocols/protocol-model';
import type { ProtocolsRepo } from '../protocols/protocols-repo';
import { parseRow, prepareCached, runTransaction } from '../store/rows';
import type { WritePlan } from '../store/store-worker';
import * as items from '../store/batch-item-writes';
import {
  BatchRow,
  type Batch,
  type BatchItem,
  type BatchItemStatus,
  type BatchItemError,
  type BatchItemState,
  type BatchProgress,
} from './batch-model';

/**
 * Durable bulk submissions. Item lifecycle: queued → sending (claimNext) → created | rejected |
 * in_doubt; in_doubt → created (reconciliation found the order) | queued (requeue: it found none).
 * After a crash every 'sending' item is 'in_doubt' (recoverAfterCrash): nothing is resent before
 * reconciliation. order_id is UNIQUE: one server order is never claimed by two items.
 */
export class BatchesRepo {
  private readonly ctx: items.ItemContext;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly protocols: ProtocolsRepo,
    orders: OrdersRepo,
  ) {
    this.ctx = { db, clock, orders };
  }

  /**
   * A running batch with one queued item per protocol, in the order given, each holding the create
   * request `buildRequest` makes from the protocol now (validated). All or nothing: an unknown or
   * repeated protocol, or a request that fails, leaves no batch behind.
   */
  createBatch(
    protocolLocalIds: readonly string[],
    buildRequest: (protocol: LocalProtocol) => CreateOrderRequest,
    options: { concurrency: number },
  ): Batch {
    return runTransaction(this.db, () => {
      const items = protocolLocalIds.map((localId) => {
        const protocol = this.protocols.get(localId);
        if (!protocol) throw new StoreError('not-found', `No protocol ${localId}.`);
        return {
          protocolLocalId: localId,
          request: CreateOrderRequest.parse(buildRequest(protocol)),
        };
      });
      return this.insertBatch(items, options);
    });
  }

  /**
   * A running batch of the given create requests, in order, one queued item each: for a caller
   * that has read the protocols and built their requests (in its transaction, as
   * BulkSubmitter.submit does, with CreateOrderRequest.safeParse). All or nothing.
   */
  insertBatch(
    items: readonly { protocolLocalId: string; request: CreateOrderRequest }[],
    options: { concurrency: number },
  ): Batch {
    if (items.length === 0)
      throw new StoreError('invalid-state', 'A batch needs at least one protocol.');
    if (new Set(items.map((i) => i.protocolLocalId)).size !== items.length) {
      throw new StoreError('invalid-state', 'A protocol appears twice in the batch.');
    }
    const id = randomUUID();
    const now = this.clock.now();
    runTransaction(this.db, () => {
      prepareCached(
        this.db,
        "INSERT INTO batches (id, created_at, state, concurrency, total) VALUES (?, ?, 'running', ?, ?)",
      ).run(id, now, options.concurrency, items.length);
      const insert = prepareCached(
        this.db,
        `INSERT INTO batch_items (batch_id, seq, protocol_local_id, request, state, updated_at)
         VALUES (?, ?, ?, ?, 'queued', ?)`,
      );
      items.forEach((item, seq) => {
        insert.run(id, seq, item.protocolLocalId, JSON.stringify(item.request), now);
      });
    });
    return this.require(id);
  }

  get(batchId: string): Batch | null {
    const row = prepareCached(this.db, 'SELECT * FROM batches WHERE id = ?').get(batchId);
    return row ? parseRow(BatchRow, row, 'batches', `id=${batchId}`) : null;
  }

  /** Batches newest first. */
  list(): Batch[] {
    return prepareCached(this.db, 'SELECT * FROM batches ORDER BY created_at DESC, id')
      .all()
      .map((row) => parseRow(BatchRow, row, 'batches', `id=${(row as { id: string }).id}`));
  }

  /** Running and paused batches: what to resume after a start. */
  unfinished(): Batch[] {
    return this.list().filter((b) => b.state !== 'done');
  }

  /** Pauses (claimNext hands out nothing) or resumes a batch that is not done. */
  setState(batchId: string, state: 'running' | 'paused'): Batch {
    const changed = prepareCached(
      this.db,
      "UPDATE batches SET state = ? WHERE id = ? AND state <> 'done'",
    ).run(state, batchId).changes;
    if (changed === 0) this.require(batchId); // not found throws; done stays done
    return this.require(batchId);
  }

  /** Marks the batch done when every item is created or rejected; true when it is done. */
  finishIfComplete(batchId: string): boolean {
    prepareCached(
      this.db,
      `UPDATE batches SET state = 'done', finished_at = ? WHERE id = ? AND state <> 'done'
         AND NOT EXISTS (SELECT 1 FROM batch_items WHERE batch_id = batches.id
                         AND state IN ('queued', 'sending', 'in_doubt'))`,
    ).run(this.clock.now(), batchId);
    return this.require(batchId).state === 'done';
  }

  /**
   * Atomically moves the first queued item that is due at `now` to 'sending' (sent_at = now,
   * attempts + 1) and returns it; null when the batch is not running or nothing is due.
   */
  claimNext(batchId: string, now: number): BatchItem | null {
    return items.claimDue(this.ctx, batchId, now, 1)[0] ?? null;
  }

  /**
   * claimNext for up to `max` items in one statement, in seq order: the bulk run claims ahead,
   * so that one commit serves many sends.
   */
  claimDue(batchId: string, now: number, max: number): BatchItem[] {
    return items.claimDue(this.ctx, batchId, now, max);
  }

  /**
   * claimDue answering only seq and attempts: for a caller that holds the requests it froze
   * (BatchRun of a batch it made); `requests()` reads them when it does not.
   */
  claimDueKeys(batchId: string, now: number, max: number): items.ClaimedKeys[] {
    return items.claimDueKeys(this.ctx, batchId, now, max);
  }

  /**
   * recordCreatedAll and then (when `claim` is given) claimDueKeys, as a write plan for the
   * store's worker (LocalStore.writeOffThread), with the reader of the claimed keys from its rows.
   * The plan holds only the records' usual case: it is refused, whole, when an item is not in a
   * state that can become created or its order is in the mirror already; the caller then writes
   * the records with recordCreated, which says why or merges.
   */
  recordAndClaimPlan(
    batchId: string,
    created: readonly { seq: number; order: AppOrder }[],
    claim: { now: number; max: number } | null,
  ): { plan: WritePlan; claimed: (rows: readonly unknown[][]) => items.ClaimedKeys[] } {
    return items.recordAndClaimPlan(this.ctx, batchId, created, claim);
  }

  /** Claimed items this process never sent go back to 'queued' (pause, stop). Returns how many. */
  releaseClaims(batchId: string, seqs: readonly number[]): number {
    return items.releaseClaims(this.ctx, batchId, seqs);
  }

  /** The create requests frozen for these items, by seq, in one read. */
  requests(batchId: string, seqs: readonly number[]): Map<number, CreateOrderRequest> {
    return items.readRequests(this.ctx, batchId, seqs);
  }

  /**
   * The item's order exists: item created with its order id, and the order mirrored, in one
   * transaction. Again with the same order: the same answer. Reads back the item without its
   * request (the caller has it).
   */
  markCreated(batchId: string, seq: number, order: AppOrder): BatchItemStatus {
    return runTransaction(this.db, () => {
      items.recordCreated(this.ctx, batchId, seq, order);
      return items.requireStatus(this.ctx, batchId, seq);
    });
  }

  /** markCreated without reading the item back: the bulk run's path, one per created order. */
  recordCreated(batchId: string, seq: number, order: AppOrder): void {
    items.recordCreated(this.ctx, batchId, seq, order);
  }

  /**
   * recordCreated for many orders without a savepoint each; call it inside a transaction, which
   * is undone whole when it throws (so the caller can replay the records one by one).
   */
  recordCreatedAll(batchId: string, created: readonly { seq: number; order: AppOrder }[]): void {
    if (!this.db.inTransaction) throw new Error('recordCreatedAll needs a transaction');
    for (const c of created) items.recordCreatedWrites(this.ctx, batchId, c.seq, c.order);
  }

  /** The server refused the create (4xx with a reason): final. */
  markRejected(batchId: string, seq: number, error: BatchItemError): BatchItemStatus {
    return items.transition(this.ctx, batchId, seq, {
      from: ['sending', 'in_doubt'],
      to: 'rejected',
      error,
      nextAttemptAt: null,
    });
  }

  /** The create's outcome is unknown: to reconcile by reading the server before any resend. */
  markInDoubt(batchId: string, seq: number, error: BatchItemError): BatchItemStatus {
    return items.transition(this.ctx, batchId, seq, {
      from: ['sending'],
      to: 'in_doubt',
      error,
      nextAttemptAt: null,
    });
  }

  /** The create certainly did not happen: queued again, not claimed before `nextAttemptAt`. */
  requeue(
    batchId: string,
    seq: number,
    options: { nextAttemptAt?: number | null; error?: BatchItemError | null } = {},
  ): BatchItemStatus {
    return items.transition(this.ctx, batchId, seq, {
      from: ['sending', 'in_doubt'],
      to: 'queued',
      error: options.error ?? null,
      nextAttemptAt: options.nextAttemptAt ?? null,
    });
  }

  item(batchId: string, seq: number): BatchItem | null {
    const row = prepareCached(
      this.db,
      'SELECT * FROM batch_items WHERE batch_id = ? AND seq = ?',
    ).get(batchId, seq);
    return row ? items.parseItem(row) : null;
  }

  items(batchId: string): BatchItem[] {
    return prepareCached(this.db, 'SELECT * FROM batch_items WHERE batch_id = ? ORDER BY seq')
      .all(batchId)
      .map(items.parseItem);
  }

  itemsInState(batchId: string, states: readonly BatchItemState[]): BatchItem[] {
    const marks = states.map(() => '?').join(', ') || 'NULL';
    return prepareCached(
      this.db,
      `SELECT * FROM batch_items WHERE batch_id = ? AND state IN (${marks}) ORDER BY seq`,
    )
      .all(batchId, ...states)
      .map(items.parseItem);
  }

  progress(batchId: string): BatchProgress {
    const rows = prepareCached(
      this.db,
      'SELECT state, COUNT(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY state',
    ).all(batchId) as { state: BatchItemState; n: number }[];
    const n = (s: BatchItemState) => rows.find((r) => r.state === s)?.n ?? 0;
    return {
      total: rows.reduce((sum, r) => sum + r.n, 0),
      queued: n('queued'),
      sending: n('sending'),
      inDoubt: n('in_doubt'),
      created: n('created'),
      rejected: n('rejected'),
    };
  }

  /** The earliest time a queued item of the batch becomes due, or null when none waits. */
  nextAttemptAt(batchId: string): number | null {
    const row = prepareCached(
      this.db,
      "SELECT MIN(COALESCE(next_attempt_at, 0)) AS t FROM batch_items WHERE batch_id = ? AND state = 'queued'",
    ).get(batchId) as { t: number | null };
    return row.t;
  }

  /** After a crash or kill: every item that was being sent is in doubt. Returns how many. */
  recoverAfterCrash(): number {
    return prepareCached(
      this.db,
      "UPDATE batch_items SET state = 'in_doubt', updated_at = ? WHERE state = 'sending'",
    ).run(this.clock.now()).changes;
  }

  private require(batchId: string): Batch {
    const batch = this.get(batchId);
    if (!batch) throw new StoreError('not-found', `No batch ${batchId}.`);
    return batch;
  }
}
