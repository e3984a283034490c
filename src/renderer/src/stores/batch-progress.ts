import type { BatchItemView, BatchView } from '@shared/work-views';
import type { IpcEventPayload } from '@shared/ipc';

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
  if (filter === 'created') return items.filter((i) => i.state === 'done');
  return items.filter(
    (i) => i.state === 'rejected' || i.state === 'in_doubt' || i.possibleDuplicates.length > 0,
  );
}
