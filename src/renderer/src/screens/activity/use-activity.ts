import type {
  ActivityEntryView,
  ActivityFilter,
  ActivityPeopleView,
  ChainCheckView,
} from '@shared/activity-views';
import type { Pace, QueryState } from '@renderer/lib/live-query';
import { useLiveQuery, usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';

/** Entries per activity.list call. */
export const PAGE = 100;

/**
 * How often the chain is checked again while entries keep coming: the check walks the whole
 * record (about half a second at 100,000 entries), so at most every 2 s and a twentieth of the
 * time.
 */
export const CHECK_PACE: Pace = { intervalMs: 2000, restFactor: 19 };

/** The entries the filters match, newest first, a page at a time (offset pages with the total). */
export function useActivityList(filter: ActivityFilter): PagedQueryHook<ActivityEntryView> {
  return usePagedQuery<ActivityEntryView>(
    async (read, index) => {
      const page = await read('activity.list', { ...filter, limit: PAGE, offset: index * PAGE });
      return page.ok
        ? { ok: true, value: { rows: page.value.entries, total: page.value.total, next: null } }
        : page;
    },
    [filter],
    { pageSize: PAGE, randomAccess: true },
  );
}

/** The staff names and OS accounts the record names (the person filter's choices). */
export function useActivityPeople(): QueryState<ActivityPeopleView> {
  return useLiveQuery((read) => read('activity.people', {}), []);
}

/** The check of the record's hash chain, read again as entries are added. */
export function useChainCheck(): QueryState<ChainCheckView> & { refresh(): void } {
  return useLiveQuery((read) => read('activity.check', {}), [], CHECK_PACE);
}
