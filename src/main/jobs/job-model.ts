import { z } from 'zod';
import { ValidationIssue } from '@shared/api';
import { jsonText, jsonTextOrNull } from '../db/rows';

/** The kinds of write to the server: a protocol's pending change, or an order create. */
export const JobKindName = z.enum(['protocol', 'order']);
export type JobKindName = z.infer<typeof JobKindName>;

/**
 * queued → sending (claimed, about to be sent) → done | rejected | queued (surely not applied:
 * sent again later) | in_doubt (the outcome is unknown: the server is read before anything is
 * sent again) → done | rejected | queued. A rejected job is queued again only by the user's hand
 * (an edited protocol, a retried batch item).
 */
export const JobState = z.enum(['queued', 'sending', 'in_doubt', 'done', 'rejected']);
export type JobState = z.infer<typeof JobState>;

/** Why a job was rejected, or what left it in doubt or queued again. */
/** An order a new one would repeat. */
export const DuplicateRef = z.object({
  /** The order, or null for a create of this desk still on its way. */
  orderId: z.string().nullable(),
  createdAt: z.string().nullable(),
  status: z.string().nullable(),
});
export type DuplicateRef = z.infer<typeof DuplicateRef>;

export const JobError = z.discriminatedUnion('kind', [
  /** The server answered with an error status and `{detail}` (400, 404, 409, ...). */
  z.object({ kind: z.literal('detail'), status: z.int(), detail: z.string() }),
  /** 422: the request's problems by location, to show on the fields they concern. */
  z.object({ kind: z.literal('validation'), issues: z.array(ValidationIssue) }),
  /** No usable answer (timeout, reset, dropped response, 5xx, 429, offline). */
  z.object({ kind: z.literal('transport'), message: z.string() }),
  /** The server's copy moved while the change waited: the user decides (protocols). */
  z.object({
    kind: z.literal('conflict'),
    conflict: z.enum(['edited-on-server', 'deleted-on-server', 'deleted-locally-edited-on-server']),
  }),
  /** What is stored here cannot be sent (an incomplete protocol). */
  z.object({ kind: z.literal('local'), message: z.string() }),
  /**
   * Held back unsent: the patient already has an order with the same content within its supply
   * (made by another desk, or being sent from this one); sent only if the user says so.
   */
  z.object({ kind: z.literal('duplicate'), orders: z.array(DuplicateRef) }),
]);
export type JobError = z.infer<typeof JobError>;

/** A job as stored; `data` is the kind's own JSON, parsed by the kind's schema. */
export const JobRow = z
  .object({
    id: z.int(),
    kind: JobKindName,
    queue_key: z.string().nullable(),
    state: JobState,
    data: jsonText(z.unknown()),
    batch_id: z.string().nullable(),
    batch_seq: z.int().nullable(),
    attempts: z.int(),
    sent_at: z.int().nullable(),
    sent_server_at: z.number().nullable(),
    first_sent_server_at: z.number().nullable(),
    next_attempt_at: z.int().nullable(),
    error: jsonTextOrNull(JobError),
    result_id: z.string().nullable(),
    created_at: z.int(),
    updated_at: z.int(),
  })
  .transform((r) => ({
    id: r.id,
    kind: r.kind,
    /** Jobs with one key are sent one at a time, in id order (a protocol's changes). */
    queueKey: r.queue_key,
    state: r.state,
    data: r.data,
    batchId: r.batch_id,
    batchSeq: r.batch_seq,
    attempts: r.attempts,
    /** When the latest attempt was claimed (steady clock). */
    sentAt: r.sent_at,
    /**
     * The server's time of the latest claim, and of the first (null: not told yet): where
     * reconciliation looks for what an attempt made, whatever the PC's clock says.
     */
    sentServerAt: r.sent_server_at,
    firstSentServerAt: r.first_sent_server_at,
    /** A queued job is not claimed before this time (backoff). */
    nextAttemptAt: r.next_attempt_at,
    error: r.error,
    /** The server id the job made or acted on (an order id, a protocol id). */
    resultId: r.result_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
export type StoredJob = z.output<typeof JobRow>;

/** A job whose data the kind has parsed. */
export type Job<D> = Omit<StoredJob, 'data'> & { data: D };

/**
 * What became of a job: the state it moves to, and what to write with it in the same
 * transaction (`write` runs after the job's own row is updated).
 * - done: the server applied it; resultId is kept.
 * - rejected: final until the user acts.
 * - queued: it surely did not take effect; sent again after a backoff, or at once ('now').
 * - in_doubt: it may have taken effect; reconciled before anything is sent again.
 */
export type Outcome =
  | { to: 'done'; resultId?: string | null; write?: () => void }
  | { to: 'rejected'; error: JobError; write?: () => void }
  | {
      to: 'queued';
      error: JobError | null;
      retry: 'now' | 'backoff';
      retryAfterMs?: number;
      write?: () => void;
    }
  | { to: 'in_doubt'; error: JobError };
