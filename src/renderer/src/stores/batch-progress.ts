import type { BatchItemView, BatchView } from '../../../shared/work-views';
import type { IpcEventPayload } from '../../../shared/ipc';

export type BatchProgress = IpcEventPayload<'batch-progress'>;
export type ItemState = BatchItemView['state'];

/** Newest first, as the batches list shows them. */
export const newestFirst = (batches: readonly BatchView[]): BatchView[] =>
  [...batches].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));

/** Items whose order is settled one way or the other. */
export const settledCount = (p: BatchProgress): number => p.created + p.rejected;

/** How far the batch is, 0..1 (an empty batch is complete). */
export const fractionDone = (p: BatchProgress): number =>
  p.total === 0 ? 1 : settledCount(p) / p.total;

/**
 * The batches as the list knows them, with the latest progress of each batch applied. Answers
 * `stale` when an event names a batch the list does not hold or finishes one it thought
 * unfinished: the list should then be read again (for the new batch, or its finishing time).
 */
export function applyProgress(
  batches: readonly BatchView[],
  latest: ReadonlyMap<string, BatchProgress>,
): { batches: BatchView[]; stale: boolean } {
  let stale = false;
  const known = new Set<string>();
  const next = batches.map((b) => {
    known.add(b.id);
    const p = latest.get(b.id);
    if (!p) return b;
    if (p.state === 'done' && b.finishedAt === null) stale = true;
    return { ...b, progress: p };
  });
  for (const id of latest.keys()) if (!known.has(id)) stale = true;
  return { batches: next, stale };
}

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
