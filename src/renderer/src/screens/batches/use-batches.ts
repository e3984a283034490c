import {
  BatchId,
  type BatchItemView,
  type BatchReviewView,
  type BatchView,
} from '@shared/work-views';
import { call } from '@renderer/lib/ipc';
import type { Pace, QueryState } from '@renderer/lib/live-query';
import { useLiveQuery } from '@renderer/lib/use-query';
import { newestFirst } from '@renderer/stores/batch-progress';

/**
 * How often a batch's items are read again while it sends: at most every 250 ms, and never more
 * than 1/20 of the time (a rest of 19 times the read), so that watching a 1,000-item batch keeps
 * the window responsive and does not slow the batch; the counts and bars follow at the same pace.
 */
export const BATCH_PACE: Pace = { intervalMs: 250, restFactor: 19 };

/**
 * Every batch, newest first, with its progress and its orders as they stand; read again as
 * batches change and as orders do (a cancel, the poller learning a status).
 */
export function useBatchList(): QueryState<BatchView[]> & { refresh(): void } {
  return useLiveQuery(
    async (read) => {
      const list = await read('batches.list', {});
      return list.ok ? { ok: true, value: newestFirst(list.value) } : list;
    },
    [],
    BATCH_PACE,
  );
}

/** One batch's items and their orders (possible duplicates follow the orders). */
export function useBatchItems(batchId: string): QueryState<BatchItemView[]> & { refresh(): void } {
  return useLiveQuery(
    async (read) =>
      // An address that is no batch id names no batch: main would refuse the call.
      BatchId.safeParse({ batchId }).success
        ? read('batches.items', { batchId })
        : { ok: false, error: { kind: 'not-found', message: 'No such batch.', fieldErrors: [] } },
    [batchId],
    BATCH_PACE,
  );
}

const NOTHING_CHOSEN: BatchReviewView = {
  items: [],
  estimatedTotal: '0.00',
  totalUnknown: null,
  exact: true,
  duplicateCheck: { checked: true, message: null },
};

/**
 * The review of the protocols chosen for a batch: read once for the choice (it asks the server
 * for the patients' recent orders), not again while the user decides on it.
 */
export function useBatchReview(
  protocolLocalIds: readonly string[],
  refillOf: Readonly<Record<string, string>> = {},
): QueryState<BatchReviewView> & { refresh(): void } {
  return useLiveQuery(
    async () =>
      // Nothing chosen is nothing to review: main refuses an empty choice.
      protocolLocalIds.length === 0
        ? { ok: true, value: NOTHING_CHOSEN }
        : call('batches.review', {
            protocolLocalIds: [...protocolLocalIds],
            ...(Object.keys(refillOf).length > 0 ? { refillOf: { ...refillOf } } : {}),
          }),
    [protocolLocalIds, refillOf],
  );
}
