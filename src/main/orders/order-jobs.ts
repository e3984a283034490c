import { z } from 'zod';
import { CreateOrderRequest, type AppOrder } from '../../shared/api';
import type { ApiClient } from '../api/client';
import { ServerClock } from '../api/server-clock';
import type { Clock } from '../clock';
import type { Job, Outcome } from '../jobs/job-model';
import type { JobKind } from '../jobs/job-runner';
import { sentWindow } from '../jobs/sent-window';
import { readFailure, writeFailure } from '../jobs/write-failure';
import type { LocalStore } from '../store';
import type { DuplicateOrders } from './duplicate-orders';
import { reconcileInDoubt } from './order-reconcile';

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

export interface OrderJobsOptions {
  store: LocalStore;
  client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
  /** The steady clock of the jobs' times (sent_at). */
  clock: Clock;
  /** The server's time, from its answers; default: never told (the steady clock's, widely). */
  serverTime?: Pick<ServerClock, 'now' | 'nowIfKnown'>;
  /** The check of the server's recent orders just before each create. */
  duplicates: Pick<DuplicateOrders, 'beforeCreate'>;
  /** Creates in flight at once outside batches (a batch has its own). Default 4. */
  concurrency?: number;
  /** How long an in-doubt create waits before the server is read. Default 15 s. */
  inDoubtGraceMs?: number | undefined;
  log?: (line: string) => void;
}

export const DEFAULT_ORDER_CONCURRENCY = 4;

/**
 * Order creates as jobs. Just before each create, the server's recent orders are looked at
 * (duplicate-orders.ts): a create that would repeat an order of the same patient and content is
 * held back (rejected with the orders it repeats) until the user sends it anyway, and one whose
 * own earlier attempt committed late takes that order. A create whose outcome is unknown is
 * matched against the server's orders (order-reconcile.ts) before it is ever sent again, so a
 * retry never makes a second order. The created order is mirrored in the same transaction that
 * marks its job done.
 */
export function orderJobs(options: OrderJobsOptions): JobKind<OrderJobData> {
  const { store, client, clock } = options;
  const serverTime = options.serverTime ?? new ServerClock(clock);
  const log = options.log ?? (() => undefined);
  const created = (order: AppOrder): Outcome => ({
    to: 'done',
    resultId: order.id,
    write: () => store.orders.insertCreated(order),
  });
  return {
    name: 'order',
    data: OrderJobData,
    concurrency: options.concurrency ?? DEFAULT_ORDER_CONCURRENCY,
    inDoubtGraceMs: options.inDoubtGraceMs ?? 15_000,
    async send(job) {
      let check: Awaited<ReturnType<DuplicateOrders['beforeCreate']>>;
      try {
        check = await options.duplicates.beforeCreate(job);
      } catch (error) {
        return readFailure(error); // nothing was sent: tried again later
      }
      if ('adopt' in check) return created(check.adopt);
      if (check.held.length > 0 && !job.data.allowDuplicates)
        return { to: 'rejected', error: { kind: 'duplicate', orders: check.held } };
      return created(await client.createOrder(job.data.request));
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
      for (const { item, order } of result.found) outcomes.set(item.id, created(order));
      const byId = new Map(jobs.map((job) => [job.id, job]));
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
