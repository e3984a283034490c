import { z } from 'zod';
import type { ActivityActor } from '@shared/activity-views';
import { CreateOrderRequest, type AppOrder } from '@shared/api';
import type { ActivityLog } from '../activity/activity-log';
import type { ApiClient } from '../api/client';
import { ServerClock } from '../api/server-clock';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { prepareCached } from '../db/rows';
import { reconcileInDoubt } from './order-reconcile';
import type { OrdersRepo } from './orders-repo';
import type { DuplicateRef, Job, Outcome } from '../jobs/job-model';
import type { JobKind } from '../jobs/job-runner';
import type { JobsRepo } from '../jobs/jobs-repo';
import { sentWindow } from '../jobs/sent-window';
import { readFailure, writeFailure } from '../jobs/write-failure';

/*
 * The order job kind: an order create, one at a time or in a batch. Its data, how it is enqueued
 * (with its batch), how it is sent and how an in-doubt create is reconciled, and the statements
 * on the jobs table that concern order jobs alone.
 */

/** The data of an order job: the create request, frozen when the job was made. */
export const OrderJobData = z.object({
  /** The protocol it was made from; null for an order written from scratch. */
  protocolLocalId: z.string().nullable(),
  request: CreateOrderRequest,
  /**
   * Orders of the same patient and content the user chose to order again beside (in the review):
   * the duplicate check does not hold the create back for them.
   */
  allowDuplicateOf: z.array(z.string()).optional(),
  /** The user sent it although it was held back as a possible duplicate: not held again. */
  allowDuplicates: z.boolean().optional(),
  /**
   * An earlier attempt's outcome was never known (reconciliation did not find its order): if its
   * order shows up before the next create, it is taken as this job's, never made twice.
   */
  earlierUnknown: z.boolean().optional(),
});
export type OrderJobData = z.infer<typeof OrderJobData>;
export type OrderJob = Job<OrderJobData>;

/** Who sent each batch (bulk/batches-repo.ts): the activity record names them for its jobs. */
export interface BatchActors {
  actorOf(batchId: string): ActivityActor | null;
}

/**
 * One queued order job of a batch, at position `batchSeq`: call it inside the transaction that
 * writes the batch (BatchesRepo.insertBatch).
 */
export function enqueueOrderJob(
  jobs: JobsRepo,
  item: {
    protocolLocalId: string | null;
    request: CreateOrderRequest;
    /** Orders of the same patient and content the user chose to order again beside. */
    allowDuplicateOf?: readonly string[];
  },
  batch: { batchId: string; batchSeq: number },
): number {
  const data: OrderJobData = {
    protocolLocalId: item.protocolLocalId,
    request: item.request,
    ...(item.allowDuplicateOf?.length ? { allowDuplicateOf: [...item.allowDuplicateOf] } : {}),
  };
  return jobs.enqueue({ kind: 'order', data, ...batch });
}

/**
 * A condition on batches (by their own name, `batches`): none of the batch's order jobs is left
 * to settle (queued, being sent or in doubt). An SQL fragment for BatchesRepo's query, kept here
 * with every other statement on the jobs table.
 */
export const BATCH_ORDERS_SETTLED = `NOT EXISTS (SELECT 1 FROM jobs WHERE state IN ('queued', 'sending', 'in_doubt')
                           AND kind = 'order' AND batch_id = batches.id)`;

/**
 * The local protocol an order was made from, when an order job of this desk made it (null
 * otherwise): an SQL expression on another table's query, given the column holding the order's
 * id. One job per server order (jobs_one_job_per_order), found on that index.
 */
export const orderProtocolOf = (orderIdColumn: string): string =>
  `(SELECT json_extract(jobs.data, '$.protocolLocalId') FROM jobs
     WHERE jobs.kind = 'order' AND jobs.result_id = ${orderIdColumn})`;

/** The local id of the protocol the order `orderId` was made from on this desk, or null. */
export function protocolOfOrder(db: Db, orderId: string): string | null {
  const row = prepareCached(db, `SELECT ${orderProtocolOf('?')} AS local_id`).get(orderId) as {
    local_id: unknown;
  };
  return typeof row.local_id === 'string' ? row.local_id : null;
}

/**
 * What the check of the server's recent orders says just before a create: an order of this very
 * create is there already (adopt it), or the orders it would repeat (none: send it).
 */
export type DuplicateVerdict = { adopt: AppOrder } | { held: DuplicateRef[] };

export interface OrderJobsOptions {
  store: { jobs: JobsRepo; orders: OrdersRepo; batches: BatchActors };
  client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
  /** The steady clock of the jobs' times (sent_at). */
  clock: Clock;
  /** The server's time, from its answers; default: never told (the steady clock's, widely). */
  serverTime?: Pick<ServerClock, 'now' | 'nowIfKnown'>;
  /** The check of the server's recent orders just before each create. */
  duplicates: { beforeCreate(job: OrderJob): Promise<DuplicateVerdict> };
  /** Records each order created, as the act of whoever submitted its batch. */
  activity: Pick<ActivityLog, 'record'>;
  /** Creates in flight at once outside batches (a batch has its own). Default 4. */
  concurrency?: number;
  /** How long an in-doubt create waits before the server is read. Default 15 s. */
  inDoubtGraceMs?: number | undefined;
  log?: (line: string) => void;
}

export const DEFAULT_ORDER_CONCURRENCY = 4;

/**
 * Order creates as jobs. Just before each create, the server's recent orders are looked at
 * (bulk/duplicate-orders.ts): a create that would repeat an order of the same patient and content is
 * held back (rejected with the orders it repeats) until the user sends it anyway, and one whose
 * own earlier attempt committed late takes that order. A create whose outcome is unknown is
 * matched against the server's orders (orders/order-reconcile.ts) before it is ever sent again, so a
 * retry never makes a second order. The created order is mirrored in the same transaction that
 * marks its job done.
 */
export function orderJobs(options: OrderJobsOptions): JobKind<OrderJobData> {
  const { store, client, clock } = options;
  const serverTime = options.serverTime ?? new ServerClock(clock);
  const log = options.log ?? (() => undefined);
  const created = (job: OrderJob, order: AppOrder): Outcome => ({
    to: 'done',
    resultId: order.id,
    write: () => {
      store.orders.insertCreated(order);
      recordCreated(job, order);
    },
  });
  const recordCreated = (job: OrderJob, order: AppOrder) => {
    const submitter = job.batchId ? store.batches.actorOf(job.batchId) : null;
    options.activity.record({
      action: 'order-created',
      // A batch from before the record kept no actor: this desk, with no person named.
      ...(submitter ? { actor: submitter } : { byApp: true }),
      subjects: {
        orders: [order.id],
        patients: [order.customer.sourceId],
        batches: job.batchId ? [job.batchId] : [],
        protocols: job.data.protocolLocalId ? [job.data.protocolLocalId] : [],
      },
    });
  };
  return {
    name: 'order',
    data: OrderJobData,
    concurrency: options.concurrency ?? DEFAULT_ORDER_CONCURRENCY,
    inDoubtGraceMs: options.inDoubtGraceMs ?? 15_000,
    async send(job) {
      let check: DuplicateVerdict;
      try {
        check = await options.duplicates.beforeCreate(job);
      } catch (error) {
        return readFailure(error); // nothing was sent: tried again later
      }
      if ('adopt' in check) return created(job, check.adopt);
      if (check.held.length > 0 && !job.data.allowDuplicates)
        return { to: 'rejected', error: { kind: 'duplicate', orders: check.held } };
      return created(job, await client.createOrder(job.data.request));
    },
    failure: (_job, error) => writeFailure(error),
    async reconcile(jobs) {
      const result = await reconcileInDoubt(
        { store, client, log },
        jobs.map((job) => ({
          id: job.id,
          request: job.data.request,
          ...sentWindow(job, serverTime, clock),
        })),
      );
      const outcomes = new Map<number, Outcome | null>();
      const byId = new Map(jobs.map((job) => [job.id, job]));
      for (const { item, order } of result.found)
        outcomes.set(item.id, created(byId.get(item.id)!, order));
      for (const item of result.notFound) {
        const job = byId.get(item.id)!;
        outcomes.set(item.id, {
          to: 'queued',
          retry: 'now',
          error: {
            kind: 'transport',
            message: 'The create did not reach the server; it is sent again.',
          },
          // The order of the lost attempt may yet show up: looked for again before the create.
          write: () => store.jobs.setData(job.id, { ...job.data, earlierUnknown: true }),
        });
      }
      return outcomes;
    },
  };
}
