import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { CreateOrderRequest, type AppOrder } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from './db';
import { StoreError } from './errors';
import type { OrdersRepo } from './orders-repo';
import type { LocalProtocol } from './protocol-model';
import type { ProtocolsRepo } from './protocols-repo';
import { parseRow, prepareCached } from './rows';
import {
  BatchItemRow,
  BatchRow,
  type Batch,
  type BatchItem,
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
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly protocols: ProtocolsRepo,
    private readonly orders: OrdersRepo,
  ) {}

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
    if (protocolLocalIds.length === 0)
      throw new StoreError('invalid-state', 'A batch needs at least one protocol.');
    if (new Set(protocolLocalIds).size !== protocolLocalIds.length) {
      throw new StoreError('invalid-state', 'A protocol appears twice in the batch.');
    }
    const id = randomUUID();
    const now = this.clock.now();
    this.db.transaction(() => {
      prepareCached(
        this.db,
        "INSERT INTO batches (id, created_at, state, concurrency, total) VALUES (?, ?, 'running', ?, ?)",
      ).run(id, now, options.concurrency, protocolLocalIds.length);
      const insert = prepareCached(
        this.db,
        `INSERT INTO batch_items (batch_id, seq, protocol_local_id, request, state, updated_at)
         VALUES (?, ?, ?, ?, 'queued', ?)`,
      );
      protocolLocalIds.forEach((localId, seq) => {
        const protocol = this.protocols.get(localId);
        if (!protocol) throw new StoreError('not-found', `No protocol ${localId}.`);
        const request = CreateOrderRequest.parse(buildRequest(protocol));
        insert.run(id, seq, localId, JSON.stringify(request), now);
      });
    })();
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
    const row = prepareCached(
      this.db,
      `UPDATE batch_items SET state = 'sending', sent_at = @now, attempts = attempts + 1, updated_at = @now
       WHERE batch_id = @batch AND seq = (
         SELECT i.seq FROM batch_items i JOIN batches b ON b.id = i.batch_id
         WHERE i.batch_id = @batch AND b.state = 'running' AND i.state = 'queued'
           AND (i.next_attempt_at IS NULL OR i.next_attempt_at <= @now)
         ORDER BY i.seq LIMIT 1)
       AND state = 'queued'
       RETURNING *`,
    ).get({ now, batch: batchId });
    return row ? this.parseItem(row) : null;
  }

  /** The item's order exists: item created with its order id, and the order mirrored, in one transaction. */
  markCreated(batchId: string, seq: number, order: AppOrder): BatchItem {
    return this.db.transaction(() => {
      const item = this.requireItem(batchId, seq);
      if (item.state === 'created' && item.orderId === order.id) return item;
      this.expect(item, ['sending', 'in_doubt']);
      try {
        prepareCached(
          this.db,
          "UPDATE batch_items SET state = 'created', order_id = ?, error = NULL, updated_at = ? WHERE batch_id = ? AND seq = ?",
        ).run(order.id, this.clock.now(), batchId, seq);
      } catch (error) {
        if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new StoreError(
            'invalid-state',
            `Order ${order.id} is already the order of another batch item.`,
          );
        }
        throw error;
      }
      this.orders.upsert(order, { source: 'created' });
      return this.requireItem(batchId, seq);
    })();
  }

  /** The server refused the create (4xx with a reason): final. */
  markRejected(batchId: string, seq: number, error: BatchItemError): BatchItem {
    return this.transition(batchId, seq, ['sending', 'in_doubt'], 'rejected', error, null);
  }

  /** The create's outcome is unknown: to reconcile by reading the server before any resend. */
  markInDoubt(batchId: string, seq: number, error: BatchItemError): BatchItem {
    return this.transition(batchId, seq, ['sending'], 'in_doubt', error, null);
  }

  /** The create certainly did not happen: queued again, not claimed before `nextAttemptAt`. */
  requeue(
    batchId: string,
    seq: number,
    options: { nextAttemptAt?: number | null; error?: BatchItemError | null } = {},
  ): BatchItem {
    return this.transition(
      batchId,
      seq,
      ['sending', 'in_doubt'],
      'queued',
      options.error ?? null,
      options.nextAttemptAt ?? null,
    );
  }

  item(batchId: string, seq: number): BatchItem | null {
    const row = prepareCached(
      this.db,
      'SELECT * FROM batch_items WHERE batch_id = ? AND seq = ?',
    ).get(batchId, seq);
    return row ? this.parseItem(row) : null;
  }

  items(batchId: string): BatchItem[] {
    return prepareCached(this.db, 'SELECT * FROM batch_items WHERE batch_id = ? ORDER BY seq')
      .all(batchId)
      .map((row) => this.parseItem(row));
  }

  itemsInState(batchId: string, states: readonly BatchItemState[]): BatchItem[] {
    const marks = states.map(() => '?').join(', ') || 'NULL';
    return prepareCached(
      this.db,
      `SELECT * FROM batch_items WHERE batch_id = ? AND state IN (${marks}) ORDER BY seq`,
    )
      .all(batchId, ...states)
      .map((row) => this.parseItem(row));
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

  private transition(
    batchId: string,
    seq: number,
    from: readonly BatchItemState[],
    to: BatchItemState,
    error: BatchItemError | null,
    nextAttemptAt: number | null,
  ): BatchItem {
    return this.db.transaction(() => {
      this.expect(this.requireItem(batchId, seq), from);
      prepareCached(
        this.db,
        'UPDATE batch_items SET state = ?, error = ?, next_attempt_at = ?, updated_at = ? WHERE batch_id = ? AND seq = ?',
      ).run(
        to,
        error === null ? null : JSON.stringify(error),
        nextAttemptAt,
        this.clock.now(),
        batchId,
        seq,
      );
      return this.requireItem(batchId, seq);
    })();
  }

  private expect(item: BatchItem, from: readonly BatchItemState[]): void {
    if (!from.includes(item.state)) {
      throw new StoreError(
        'invalid-state',
        `Batch item ${item.batchId}#${item.seq} is ${item.state}, not ${from.join(' or ')}.`,
      );
    }
  }

  private require(batchId: string): Batch {
    const batch = this.get(batchId);
    if (!batch) throw new StoreError('not-found', `No batch ${batchId}.`);
    return batch;
  }

  private requireItem(batchId: string, seq: number): BatchItem {
    const item = this.item(batchId, seq);
    if (!item) throw new StoreError('not-found', `No batch item ${batchId}#${seq}.`);
    return item;
  }

  private parseItem(row: unknown): BatchItem {
    const r = row as { batch_id: string; seq: number };
    return parseRow(BatchItemRow, row, 'batch_items', `batch_id=${r.batch_id}, seq=${r.seq}`);
  }
}
