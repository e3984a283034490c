import type { ApiClient } from '@main/api/client';
import { BulkSubmitter } from '@main/bulk/bulk-submitter';
import { systemClock } from '@main/clock';
import type { CoreEventBus } from '@main/core-event-bus';
import { JobRunner } from '@main/jobs/job-runner';
import { DuplicateOrders } from '@main/bulk/duplicate-orders';
import { createOrderActions } from '@main/orders/order-actions';
import { orderJobs } from '@main/orders/order-job';
import { RecentOrders } from '@main/orders/recent-orders';
import type { LocalStore } from '@main/stores';
import { realTimers } from '@main/timers';
import { testActivity } from './activity';

export interface BulkStack {
  jobs: JobRunner;
  submitter: BulkSubmitter;
  /** The server's recent orders the duplicate checks read (its `requests` count them). */
  recent: RecentOrders;
  stop(): Promise<void>;
}

/**
 * Bulk submission as a session wires it, on real timers: a job runner sending order jobs and the
 * BulkSubmitter following them. Started; stop() waits for the creates in flight.
 */
export function startBulk(
  deps: {
    store: LocalStore;
    client: Pick<ApiClient, 'createOrder' | 'listOrders' | 'cancelOrder' | 'getOrder'>;
    bus: CoreEventBus;
  },
  options: {
    inDoubtGraceMs?: number;
    progressIntervalMs?: number;
    concurrency?: number;
    log?: (line: string) => void;
  } = {},
): BulkStack {
  const { store, client, bus } = deps;
  const log = options.log ?? (() => undefined);
  const activity = testActivity(store);
  let submitter: BulkSubmitter | null = null;
  // As a Session wires them: the server's recent orders and the duplicate checks on them.
  const recent = new RecentOrders({ store, client, serverTime: systemClock, steady: systemClock });
  const duplicates = new DuplicateOrders({
    store,
    recent,
    serverTime: systemClock,
    steady: systemClock,
  });
  const jobs = new JobRunner({
    db: store.db,
    jobs: store.jobs,
    clock: systemClock,
    serverNow: () => systemClock.now(),
    timers: realTimers,
    kinds: [
      orderJobs({
        store,
        client,
        clock: systemClock,
        duplicates,
        activity,
        log,
        ...(options.inDoubtGraceMs !== undefined ? { inDoubtGraceMs: options.inDoubtGraceMs } : {}),
      }),
    ],
    log,
    onChanged: (change) => submitter?.onJobChanged(change),
  });
  submitter = new BulkSubmitter({
    store,
    activity,
    jobs,
    duplicates,
    orders: createOrderActions({ store, client, bus, activity, log }),
    bus,
    clock: systemClock,
    timers: realTimers,
    log,
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.progressIntervalMs !== undefined
      ? { progressIntervalMs: options.progressIntervalMs }
      : {}),
  });
  jobs.start();
  const bulk = submitter;
  return {
    jobs,
    submitter: bulk,
    recent,
    async stop() {
      await jobs.stop();
      bulk.stop();
    },
  };
}
