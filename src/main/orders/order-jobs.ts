import { z } from 'zod';
import { CreateOrderRequest, type AppOrder } from '../../shared/api';
import type { ApiClient } from '../api/client';
import type { Job, Outcome } from '../jobs/job-model';
import type { JobKind } from '../jobs/job-runner';
import { writeFailure } from '../jobs/write-failure';
import type { LocalStore } from '../store';
import { reconcileInDoubt } from './order-reconcile';

/** The data of an order job: the create request, frozen when the job was made. */
export const OrderJobData = z.object({
  /** The protocol it was made from; null for an order written from scratch. */
  protocolLocalId: z.string().nullable(),
  request: CreateOrderRequest,
});
export type OrderJobData = z.infer<typeof OrderJobData>;
export type OrderJob = Job<OrderJobData>;

export interface OrderJobsOptions {
  store: LocalStore;
  client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
  /** Creates in flight at once outside batches (a batch has its own). Default 4. */
  concurrency?: number;
  /** How long an in-doubt create waits before the server is read. Default 15 s. */
  inDoubtGraceMs?: number | undefined;
  /** How far the server's clock may lag ours when matching creation times. Default 5 min. */
  skewMarginMs?: number;
  log?: (line: string) => void;
}

export const DEFAULT_ORDER_CONCURRENCY = 4;

/**
 * Order creates as jobs. Sent once each; a create whose outcome is unknown is matched against
 * the server's orders (order-reconcile.ts) before it is ever sent again, so a retry never makes
 * a second order. The created order is mirrored in the same transaction that marks its job done.
 */
export function orderJobs(options: OrderJobsOptions): JobKind<OrderJobData> {
  const { store, client } = options;
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
      return created(await client.createOrder(job.data.request));
    },
    failure: (_job, error) => writeFailure(error),
    async reconcile(jobs) {
      const result = await reconcileInDoubt(
        { store, client, skewMarginMs: options.skewMarginMs ?? 5 * 60_000, log },
        jobs.map((job) => ({ ...job, request: job.data.request })),
      );
      const outcomes = new Map<number, Outcome | null>();
      for (const { item, order } of result.found) outcomes.set(item.id, created(order));
      for (const item of result.notFound) {
        outcomes.set(item.id, {
          to: 'queued',
          retry: 'now',
          error: {
            kind: 'transport',
            message: 'The create did not reach the server; it is sent again.',
          },
        });
      }
      return outcomes;
    },
  };
}
