import { z } from 'zod';
import {
  BatchId,
  BatchItemView,
  BatchReviewView,
  BatchView,
  RetryBatchItem,
  ReviewBatch,
  SubmitBatch,
} from '../work-views';
import { call, None, read, type AreaChannels } from './channel';

/** batches.*: review, submit, the list and items, pause, continue, retry an item. */
export const batchesChannels = {
  /** What a batch of these protocols would be: estimates, warnings, and those left out and why. */
  'batches.review': call(ReviewBatch, BatchReviewView),
  /** Freezes one order per protocol and starts sending them; refused whole when one cannot be. */
  'batches.submit': call(SubmitBatch, z.object({ batchId: z.string() })),
  'batches.list': read(None, z.array(BatchView), ['batches', 'jobs', 'orders']),
  'batches.items': read(BatchId, z.array(BatchItemView), ['batches', 'jobs', 'orders', 'catalog']),
  'batches.pause': call(BatchId, BatchView),
  'batches.continue': call(BatchId, BatchView),
  /** Sends a rejected item again, frozen anew from its protocol's current draft. */
  'batches.retryItem': call(RetryBatchItem, BatchView),
} as const satisfies AreaChannels<'batches'>;
