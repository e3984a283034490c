import type { AppOrder, OrderStatusRead } from '@shared/api';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import * as mirror from './order-mirror-reads';
import {
  insertCreatedOrder,
  upsertOrder,
  upsertOrders,
  type OrderUpsert,
} from './order-mirror-writes';
import { OrderQueueReads, type OrderQuery } from './order-queue-reads';
import { orderTimeline, type OrderStatusChange } from './order-timeline';
import * as poll from './poll-schedule';
import * as duplicates from './possible-duplicates';

export { OrderSource } from './order-mirror-reads';
export { orderStatusEvent, type OrderUpsert } from './order-mirror-writes';
export type { OrderQuery } from './order-queue-reads';
export type { OrderStatusChange } from './order-timeline';
export type { DueOrder } from './poll-schedule';
export { AutoCancel, type PossibleDuplicate } from './possible-duplicates';

/**
 * Mirror of orders: created here (bulk submission) or pulled, with the poller's schedule. One
 * front for the rest of main; each concern's reads and writes are in their own module (see each
 * method's).
 */
export class OrdersRepo {
  private readonly queue: OrderQueueReads;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.queue = new OrderQueueReads(db);
  }

  // The mirror (order-mirror-writes.ts, order-mirror-reads.ts).
  upsert(order: AppOrder, options: { source: mirror.OrderSource; nextPollAt?: number | null }) {
    return upsertOrder(this.db, this.clock, order, options);
  }
  insertCreated(order: AppOrder): void {
    insertCreatedOrder(this.db, this.clock, order);
  }
  upsertMany(orders: readonly AppOrder[], source: mirror.OrderSource): OrderUpsert[] {
    return upsertOrders(this.db, this.clock, orders, source);
  }
  get(id: string): AppOrder | null {
    return mirror.orderRow(this.db, id)?.body ?? null;
  }
  updatedAtOf(ids: readonly string[]): Map<string, number> {
    return mirror.updatedAtOf(this.db, ids);
  }
  createdHere(ids: readonly string[]): string[] {
    return mirror.createdHere(this.db, ids);
  }
  ofPatientSince(sourceId: string, since: number): AppOrder[] {
    return mirror.ofPatientSince(this.db, sourceId, since);
  }

  // The queue and the export walk (order-queue-reads.ts).
  list(query: OrderQuery = {}): AppOrder[] {
    return this.queue.list(query);
  }
  matching(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): Generator<AppOrder> {
    return this.queue.matching(query);
  }
  count(query: Omit<OrderQuery, 'limit' | 'offset'> = {}): number {
    return this.queue.count(query);
  }
  countByStatus(
    query: Omit<OrderQuery, 'limit' | 'offset' | 'statuses'> = {},
  ): Record<OrderStatusRead, number> {
    return this.queue.countByStatus(query);
  }

  // The statuses seen (order-timeline.ts).
  timeline(id: string): OrderStatusChange[] {
    return orderTimeline(this.db, id);
  }

  // The poller's schedule (poll-schedule.ts).
  dueForPolling(
    now: number,
    limit: number,
    fast: Parameters<typeof poll.dueForPolling>[3] = null,
  ): poll.DueOrder[] {
    return poll.dueForPolling(this.db, now, limit, fast);
  }
  schedulePoll(id: string, schedule: { polledAt?: number; nextPollAt: number | null }): boolean {
    return poll.schedulePoll(this.db, id, schedule);
  }
  clampPollSchedule(now: number, maxWaitMs: number): number {
    return poll.clampPollSchedule(this.db, now, maxWaitMs);
  }

  // Possible duplicates of a batch's orders (possible-duplicates.ts).
  markPossibleDuplicate(d: Parameters<typeof duplicates.markPossibleDuplicate>[2]): boolean {
    return duplicates.markPossibleDuplicate(this.db, this.clock.now(), d);
  }
  pendingAutoCancels(): { orderId: string; of: string; batchId: string }[] {
    return duplicates.pendingAutoCancels(this.db);
  }
  settleAutoCancel(orderId: string, outcome: duplicates.AutoCancel): void {
    duplicates.settleAutoCancel(this.db, orderId, outcome);
  }
  possibleDuplicates(batchId: string): duplicates.PossibleDuplicate[] {
    return duplicates.possibleDuplicates(this.db, batchId);
  }
  possibleDuplicateCount(batchId: string): { open: number; cancelled: number } {
    return duplicates.possibleDuplicateCount(this.db, batchId);
  }
  duplicateOf(ids: readonly string[]): Map<string, string> {
    return duplicates.duplicateOf(this.db, ids);
  }
}
