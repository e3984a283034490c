import { BatchItemView, BatchView } from '@shared/work-views';

/**
 * Batches as main answers batches.list and batches.items, parsed with their schemas so a
 * fixture that drifts from the contract fails where it is built.
 */

export const BATCH_ID = '6b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';
export const PROTOCOL_ID = '7c2d3e4f-5061-4b72-9c83-a4b5c6d7e8f9';

/** A batch of three protocols, running: one created, one rejected, one waiting. */
export function batch(
  over: Partial<BatchView> = {},
  progress: Partial<BatchView['progress']> = {},
) {
  const id = over.id ?? BATCH_ID;
  return BatchView.parse({
    id,
    createdAt: Date.parse('2026-11-20T09:30:00.000Z'),
    finishedAt: null,
    concurrency: 4,
    name: null,
    ordered: {
      standing: { orders: 1, amount: '26.35' },
      cancelled: { orders: 0, amount: '0.00' },
      refused: 1,
    },
    single: null,
    ...over,
    progress: {
      batchId: id,
      state: 'running',
      total: 3,
      queued: 1,
      sending: 0,
      inDoubt: 0,
      created: 1,
      rejected: 1,
      held: 0,
      possibleDuplicates: 0,
      repeatsCancelled: 0,
      ...progress,
    },
  });
}

/** One item of a batch, created as order ord_1001 (NEW) unless told otherwise. */
export function batchItem(over: Partial<BatchItemView> = {}): BatchItemView {
  return BatchItemView.parse({
    seq: 0,
    protocolLocalId: PROTOCOL_ID,
    customerName: 'Ada Lovelace',
    sourceId: 'PAT-ADA-1',
    state: 'done',
    orderId: 'ord_1001',
    orderStatus: 'NEW',
    attempts: 1,
    message: null,
    held: [],
    possibleDuplicates: [],
    ...over,
  });
}
