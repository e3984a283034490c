import { z } from 'zod';
import type { CreateOrderRequest, OrderStatusRead } from '@shared/api';
import { ActivityActor } from '@shared/activity-views';
import type { AutoCancel } from '../orders/orders-repo';
import { jsonTextOrNull } from '../db/rows';
import type { JobError, JobState } from '../jobs/job-model';

export const BatchState = z.enum(['running', 'paused', 'done']);
export type BatchState = z.infer<typeof BatchState>;

export const BatchRow = z
  .object({
    id: z.string(),
    created_at: z.int(),
    state: BatchState,
    concurrency: z.int(),
    total: z.int(),
    finished_at: z.int().nullable(),
    name: z.string().nullable(),
    /** Who submitted it (migration 13); null for a batch submitted before. */
    actor: jsonTextOrNull(ActivityActor),
  })
  .transform((r) => ({
    id: r.id,
    createdAt: r.created_at,
    state: r.state,
    concurrency: r.concurrency,
    total: r.total,
    finishedAt: r.finished_at,
    name: r.name,
    actor: r.actor,
  }));
export type Batch = z.output<typeof BatchRow>;

/** One protocol of a batch: its order job, seen from the batch. */
export interface BatchItem {
  batchId: string;
  seq: number;
  jobId: number;
  protocolLocalId: string | null;
  request: CreateOrderRequest;
  state: JobState;
  /** The order made for it, once its job is done. */
  orderId: string | null;
  /** That order's status as mirrored now (the poller keeps it); null until it is mirrored. */
  orderStatus: OrderStatusRead | null;
  error: JobError | null;
  attempts: number;
  sentAt: number | null;
  /** Orders found after the batch that may repeat this item's order (see DuplicateOrders). */
  possibleDuplicates: {
    orderId: string;
    of: string;
    status: string | null;
    autoCancel: AutoCancel;
  }[];
}

export type BatchProgress = Record<
  | 'total'
  | 'queued'
  | 'sending'
  | 'inDoubt'
  | 'created'
  | 'rejected'
  | 'held'
  | 'possibleDuplicates'
  | 'repeatsCancelled',
  number
>;
