import { useLiveQuery } from '@renderer/lib/use-query';

/** The items of one batch as they settle: what the order progress of one order follows. */
export function useBatchItems(batchId: string) {
  const items = useLiveQuery((read) => read('batches.items', { batchId }), [batchId]);
  return items;
}
