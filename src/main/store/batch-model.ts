import { z } from 'zod';
import { CreateOrderRequest, ValidationIssue } from '../../shared/api';
import { jsonText, jsonTextOrNull } from './rows';

export const BatchState = z.enum(['running', 'paused', 'done']);
export type BatchState = z.infer<typeof BatchState>;

export const BatchItemState = z.enum(['queued', 'sending', 'in_doubt', 'created', 'rejected']);
export type BatchItemState = z.infer<typeof BatchItemState>;

/** Why an item was rejected, or what left it in doubt or requeued. */
export const BatchItemError = z.discriminatedUnion('kind', [
  /** The server answered with an error status and `{detail}` (400, 404, 409, ...). */
  z.object({ kind: z.literal('detail'), status: z.int(), detail: z.string() }),
  /** 422: the request's problems by location, to show on the protocol's fields. */
  z.object({ kind: z.literal('validation'), issues: z.array(ValidationIssue) }),
  /** No usable answer (timeout, reset, dropped response, 5xx): the create may have happened. */
  z.object({ kind: z.literal('transport'), message: z.string() }),
]);
export type BatchItemError = z.infer<typeof BatchItemError>;

export const BatchRow = z
  .object({
    id: z.string(),
    created_at: z.int(),
    state: BatchState,
    concurrency: z.int(),
    total: z.int(),
    finished_at: z.int().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    createdAt: r.created_at,
    state: r.state,
    concurrency: r.concurrency,
    total: r.total,
    finishedAt: r.finished_at,
  }));
export type Batch = z.output<typeof BatchRow>;

export const BatchItemRow = z
  .object({
    batch_id: z.string(),
    seq: z.int(),
    protocol_local_id: z.string(),
    request: jsonText(CreateOrderRequest),
    state: BatchItemState,
    order_id: z.string().nullable(),
    error: jsonTextOrNull(BatchItemError),
    attempts: z.int(),
    sent_at: z.int().nullable(),
    next_attempt_at: z.int().nullable(),
    updated_at: z.int(),
  })
  .transform((r) => ({
    batchId: r.batch_id,
    seq: r.seq,
    protocolLocalId: r.protocol_local_id,
    /** The create request frozen when the batch was made. */
    request: r.request,
    state: r.state,
    orderId: r.order_id,
    error: r.error,
    attempts: r.attempts,
    /** When the latest attempt was sent (reconciliation looks for orders created around it). */
    sentAt: r.sent_at,
    nextAttemptAt: r.next_attempt_at,
    updatedAt: r.updated_at,
  }));
export type BatchItem = z.output<typeof BatchItemRow>;

export type BatchProgress = Record<
  'total' | 'queued' | 'sending' | 'inDoubt' | 'created' | 'rejected',
  number
>;
