import Database from 'better-sqlite3';
import { z } from 'zod';
import { CreateOrderRequest, type AppOrder } from '../../shared/api';
import type { Clock } from '../clock';
import type { Db } from './db';
import { StoreError } from './errors';
import type { OrdersRepo } from '../orders/orders-repo';
import { jsonText, parseRow, prepareCached, runTransaction } from './rows';
import type { PlanStep } from './store-worker';
import {
  BatchItemRow,
  BatchItemStatusRow,
  ITEM_STATUS_COLUMNS,
  type BatchItem,
  type BatchItemError,
  type BatchItemState,
  type BatchItemStatus,
} from '../bulk/batch-model';

/** What the item state changes work on (BatchesRepo's collaborators). */
export interface ItemContext {
  db: Db;
  clock: Clock;
  orders: OrdersRepo;
}

/**
 * Moves the first @max due queued items of @batch (by seq) to 'sending' at @now: the durable
 * claim that comes before any send. A RETURNING clause follows; its rows come in no set order.
 */
const CLAIM_DUE = `UPDATE batch_items SET state = 'sending', sent_at = @now, attempts = attempts + 1, updated_at = @now
  WHERE batch_id = @batch AND state = 'queued' AND seq IN (
    SELECT i.seq FROM batch_items i JOIN batches b ON b.id = i.batch_id
    WHERE i.batch_id = @batch AND b.state = 'running' AND i.state = 'queued'
      AND (i.next_attempt_at IS NULL OR i.next_attempt_at <= @now)
    ORDER BY i.seq LIMIT @max)`;

const RequestColumn = z.object({ seq: z.int(), request: jsonText(CreateOrderRequest) });
const bySeq = <T extends { seq: number }>(a: T, b: T) => a.seq - b.seq;

/** Claims up to `max` due items in one statement, in seq order (with their requests). */
export function claimDue(ctx: ItemContext, batchId: string, now: number, max: number): BatchItem[] {
  return prepareCached(ctx.db, `${CLAIM_DUE} RETURNING *`)
    .all({ now, batch: batchId, max })
    .map(parseItem)
    .sort(bySeq);
}

const ClaimedKeys = z.object({ seq: z.int(), attempts: z.int() });
export type ClaimedKeys = z.infer<typeof ClaimedKeys>;
const CLAIM_DUE_KEYS = `${CLAIM_DUE} RETURNING seq, attempts`;

const parseClaimedKeys = (rows: readonly unknown[], batchId: string): ClaimedKeys[] =>
  rows.map((row) => parseRow(ClaimedKeys, row, 'batch_items', `batch_id=${batchId}`)).sort(bySeq);

/**
 * claimDue answering only each item's seq and attempt count, in seq order: for a caller that
 * holds the requests it froze and knows the rest (state 'sending', sent_at = now).
 */
export function claimDueKeys(
  ctx: ItemContext,
  batchId: string,
  now: number,
  max: number,
): ClaimedKeys[] {
  return parseClaimedKeys(
    prepareCached(ctx.db, CLAIM_DUE_KEYS).all({ now, batch: batchId, max }),
    batchId,
  );
}

/** recordCreatedWrites' usual case for each order, then claimDueKeys (BatchesRepo.recordAndClaimPlan). */
export function recordAndClaimPlan(
  ctx: ItemContext,
  batchId: string,
  created: readonly { seq: number; order: AppOrder }[],
  claim: { now: number; max: number } | null,
): { plan: PlanStep[]; claimed: (rows: readonly unknown[][]) => ClaimedKeys[] } {
  const now = ctx.clock.now();
  const steps: PlanStep[] = [];
  for (const { seq, order } of created) {
    steps.push(
      { sql: RECORD_CREATED, params: [order.id, now, batchId, seq], expect: 'change' },
      ctx.orders.insertCreatedStep(order),
    );
  }
  if (claim) {
    steps.push({
      sql: CLAIM_DUE_KEYS,
      params: [{ now: claim.now, batch: batchId, max: claim.max }],
      expect: 'rows',
    });
  }
  return {
    plan: steps,
    claimed: (rows) => (claim ? parseClaimedKeys(rows[0] ?? [], batchId) : []),
  };
}

/**
 * Claims that were never sent go back to 'queued', their attempt uncounted. Only the process
 * that claimed them knows they were not sent; after a crash they are in doubt instead.
 */
export function releaseClaims(ctx: ItemContext, batchId: string, seqs: readonly number[]): number {
  const release = prepareCached(
    ctx.db,
    `UPDATE batch_items SET state = 'queued', attempts = attempts - 1, updated_at = ?
     WHERE batch_id = ? AND seq = ? AND state = 'sending'`,
  );
  const now = ctx.clock.now();
  return runTransaction(ctx.db, () =>
    seqs.reduce((n, seq) => n + release.run(now, batchId, seq).changes, 0),
  );
}

/** The frozen requests of the items `seqs` of a batch, in one read; each must exist. */
export function readRequests(
  ctx: ItemContext,
  batchId: string,
  seqs: readonly number[],
): Map<number, CreateOrderRequest> {
  const rows = prepareCached(
    ctx.db,
    'SELECT seq, request FROM batch_items WHERE batch_id = ? AND seq IN (SELECT value FROM json_each(?))',
  ).all(batchId, JSON.stringify(seqs));
  const requests = new Map(
    rows.map((row) => {
      const key = `batch_id=${batchId}, seq=${(row as { seq: unknown }).seq}`;
      const { seq, request } = parseRow(RequestColumn, row, 'batch_items', key);
      return [seq, request] as const;
    }),
  );
  const missing = seqs.find((seq) => !requests.has(seq));
  if (missing !== undefined)
    throw new StoreError('not-found', `No batch item ${batchId}#${missing}.`);
  return requests;
}

/** The item is created with its order id, if it is in a state that can become created. */
const RECORD_CREATED = `UPDATE batch_items SET state = 'created', order_id = ?, error = NULL, updated_at = ?
  WHERE batch_id = ? AND seq = ? AND state IN ('sending', 'in_doubt')`;

/** Item created with its order id and the order mirrored, in one transaction (or savepoint). */
export function recordCreated(ctx: ItemContext, batchId: string, seq: number, order: AppOrder) {
  runTransaction(ctx.db, () => recordCreatedWrites(ctx, batchId, seq, order));
}

/**
 * recordCreated's writes without a savepoint of their own: for a caller whose transaction holds
 * many records and is undone whole if one of them throws (RunLedger replays them one by one).
 */
export function recordCreatedWrites(
  ctx: ItemContext,
  batchId: string,
  seq: number,
  order: AppOrder,
): void {
  let changes: number;
  try {
    // The state check and the write in one statement: no change when the item is not in a
    // state that can become created (then read it to say why).
    changes = prepareCached(ctx.db, RECORD_CREATED).run(
      order.id,
      ctx.clock.now(),
      batchId,
      seq,
    ).changes;
  } catch (error) {
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new StoreError(
        'invalid-state',
        `Order ${order.id} is already the order of another batch item.`,
      );
    }
    throw error;
  }
  if (changes === 0) {
    const item = requireStatus(ctx, batchId, seq);
    if (item.state === 'created' && item.orderId === order.id) return;
    throw wrongState(item, ['sending', 'in_doubt']);
  }
  ctx.orders.insertCreated(order);
}

/** Any other state change: from one of `from` to `to`, with its error and next attempt time. */
export function transition(
  ctx: ItemContext,
  batchId: string,
  seq: number,
  change: {
    from: readonly BatchItemState[];
    to: BatchItemState;
    error: BatchItemError | null;
    nextAttemptAt: number | null;
  },
): BatchItemStatus {
  return runTransaction(ctx.db, () => {
    const item = requireStatus(ctx, batchId, seq);
    if (!change.from.includes(item.state)) throw wrongState(item, change.from);
    prepareCached(
      ctx.db,
      'UPDATE batch_items SET state = ?, error = ?, next_attempt_at = ?, updated_at = ? WHERE batch_id = ? AND seq = ?',
    ).run(
      change.to,
      change.error === null ? null : JSON.stringify(change.error),
      change.nextAttemptAt,
      ctx.clock.now(),
      batchId,
      seq,
    );
    return requireStatus(ctx, batchId, seq);
  });
}

export function requireStatus(ctx: ItemContext, batchId: string, seq: number): BatchItemStatus {
  const row = prepareCached(
    ctx.db,
    `SELECT ${ITEM_STATUS_COLUMNS} FROM batch_items WHERE batch_id = ? AND seq = ?`,
  ).get(batchId, seq);
  if (!row) throw new StoreError('not-found', `No batch item ${batchId}#${seq}.`);
  return parseStatus(row);
}

const rowKey = (row: unknown) => {
  const r = row as { batch_id: string; seq: number };
  return `batch_id=${r.batch_id}, seq=${r.seq}`;
};

export const parseStatus = (row: unknown): BatchItemStatus =>
  parseRow(BatchItemStatusRow, row, 'batch_items', rowKey(row));

export const parseItem = (row: unknown): BatchItem =>
  parseRow(BatchItemRow, row, 'batch_items', rowKey(row));

const wrongState = (item: BatchItemStatus, from: readonly BatchItemState[]): StoreError =>
  new StoreError(
    'invalid-state',
    `Batch item ${item.batchId}#${item.seq} is ${item.state}, not ${from.join(' or ')}.`,
  );
