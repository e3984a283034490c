import type { ApiClient } from '../../src/main/api/client';
import { BulkSubmitter } from '../../src/main/bulk/bulk-submitter';
import { systemClock } from '../../src/main/clock';
import type { CoreEventBus } from '../../src/main/events';
import { JobRunner } from '../../src/main/jobs/job-runner';
import { orderJobs } from '../../src/main/orders/order-jobs';
import type { LocalStore } from '../../src/main/store';
import { realTimers } from '../../src/main/timers';

export interface BulkStack {
  jobs: JobRunner;
  submitter: BulkSubmitter;
  stop(): Promise<void>;
}

/**
 * Bulk submission as a session wires it, on real timers: a job runner sending order jobs and the
 * BulkSubmitter following them. Started; stop() waits for the creates in flight.
 */
export function startBulk(
  deps: {
    store: LocalStore;
    client: Pick<ApiClient, 'createOrder' | 'listOrders'>;
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
  let submitter: BulkSubmitter | null = null;
  const jobs = new JobRunner({
    db: store.db,
    jobs: store.jobs,
    clock: systemClock,
    timers: realTimers,
    kinds: [
      orderJobs({
        store,
        client,
        clock: systemClock,
        log,
        ...(options.inDoubtGraceMs !== undefined ? { inDoubtGraceMs: options.inDoubtGraceMs } : {}),
      }),
    ],
    log,
    onChanged: (change) => submitter?.onJobChanged(change),
  });
  submitter = new BulkSubmitter({
    store,
    jobs,
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
    async stop() {
      await jobs.stop();
      bulk.stop();
    },
  };
}
