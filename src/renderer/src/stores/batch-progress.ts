import { isOpenDuplicate, type BatchItemView, type BatchView } from '@shared/work-views';
import type { IpcEventPayload } from '@shared/ipc';
import { isStanding } from '@shared/order-outcome';

export type BatchProgress = IpcEventPayload<'batch-progress'>;
export type ItemState = BatchItemView['state'];

/** Newest first, as the batches list shows them. */
export const newestFirst = (batches: readonly BatchView[]): BatchView[] =>
  [...batches].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));

/**
 * What the run view's filter keeps: everything, or what needs a look (rejected or held back, in
 * doubt, or with possible duplicates).
 */
export type ItemFilter = 'all' | 'attention' | 'created';

export function filterItems(items: readonly BatchItemView[], filter: ItemFilter): BatchItemView[] {
  if (filter === 'all') return items as BatchItemView[];
  // As the counts say: created and still standing (a cancelled order is counted apart).
  if (filter === 'created')
    return items.filter(
      (i) => i.state === 'done' && (i.orderStatus === null || isStanding(i.orderStatus)),
    );
  return items.filter(
    (i) =>
      i.state === 'rejected' ||
      i.state === 'in_doubt' ||
      i.possibleDuplicates.some(isOpenDuplicate),
  );
}
