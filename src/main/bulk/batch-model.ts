import { z } from 'zod';
import { CreateOrderRequest, ValidationIssue } from '../../shared/api';
import { jsonText, jsonTextOrNull } from '../store/rows';

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

/** The columns of a batch item but its frozen request: what a state change needs to read back. */
const itemStatusColumns = {
  batch_id: z.string(),
  seq: z.int(),
  protocol_local_id: z.string(),
  state: BatchItemState,
  order_id: z.string().nullable(),
  error: jsonTextOrNull(BatchItemError),
  attempts: z.int(),
  sent_at: z.int().nullable(),
  next_attempt_at: z.int().nullable(),
  updated_at: z.int(),
};

const statusOf = (r: z.output<z.ZodObject<typeof itemStatusColumns>>) => ({
  batchId: r.batch_id,
  seq: r.seq,
  protocolLocalId: r.protocol_local_id,
  state: r.state,
  orderId: r.order_id,
  error: r.error,
  attempts: r.attempts,
  /** When the latest attempt was sent (reconciliation looks for orders created around it). */
  sentAt: r.sent_at,
  nextAttemptAt: r.next_attempt_at,
  updatedAt: r.updated_at,
});

/** SQL list of the columns BatchItemStatusRow reads. */
export const ITEM_STATUS_COLUMNS = Object.keys(itemStatusColumns).join(', ');

/** A batch item without its request (parsing the request's JSON is most of the cost of a row). */
export const BatchItemStatusRow = z.object(itemStatusColumns).transform(statusOf);
export type BatchItemStatus = z.output<typeof BatchItemStatusRow>;

export const BatchItemRow = z
  .object({ ...itemStatusColumns, request: jsonText(CreateOrderRequest) })
  .transform((r) => ({
    ...statusOf(r),
    /** The create request frozen when the batch was made. */
    request: r.request,
  }));
export type BatchItem = z.output<typeof BatchItemRow>;

export type BatchProgress = Record<
  'total' | 'queued' | 'sending' | 'inDoubt' | 'created' | 'rejected',
  number
>;
