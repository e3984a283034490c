import { z } from 'zod';
import { AppOrder, OrderStatus } from './api';
import { BatchProgressEvent } from './events';

/**
 * Batches and orders as the window sees them over IPC (the `batches.*` and `orders.*` calls).
 */

export const BatchId = z.object({ batchId: z.uuid() });

export const BatchView = z.object({
  id: z.string(),
  /** Epoch ms. */
  createdAt: z.int(),
  finishedAt: z.int().nullable(),
  concurrency: z.int().min(1),
  progress: BatchProgressEvent,
});
export type BatchView = z.infer<typeof BatchView>;

/** One protocol of a batch and what became of its order. */
export const BatchItemView = z.object({
  seq: z.int().min(0),
  protocolLocalId: z.string().nullable(),
  customerName: z.string(),
  sourceId: z.string(),
  state: z.enum(['queued', 'sending', 'in_doubt', 'done', 'rejected']),
  /** The order made for it, once created. */
  orderId: z.string().nullable(),
  attempts: z.int().min(0),
  /** Why it was refused or is waiting, for people. */
  message: z.string().nullable(),
});
export type BatchItemView = z.infer<typeof BatchItemView>;

export const SubmitBatch = z.object({
  protocolLocalIds: z.array(z.uuid()).min(1, 'choose at least one protocol').max(5_000),
  concurrency: z.int().min(1).max(16).optional(),
});

export const OrderQuery = z.object({
  statuses: z.array(OrderStatus).max(OrderStatus.options.length).optional(),
  /** The patient's sourceId, exactly. */
  sourceId: z.string().min(1).max(100).optional(),
  createdFrom: z.iso.datetime({ offset: true }).optional(),
  createdTo: z.iso.datetime({ offset: true }).optional(),
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
});
export type OrderQuery = z.input<typeof OrderQuery>;

export const OrderId = z.object({ orderId: z.string().min(1).max(100) });

/** A cancel: done, or refused with a reason people can read (the order as the server has it). */
export const CancelOutcome = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), order: AppOrder }),
  z.object({
    ok: z.literal(false),
    reason: z.enum(['already-cancelled', 'not-cancellable', 'not-found']),
    message: z.string(),
    order: AppOrder.nullable(),
  }),
]);
