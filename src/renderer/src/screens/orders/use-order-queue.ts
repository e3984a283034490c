import { useShallow } from 'zustand/react/shallow';
import type { AppOrder } from '@shared/api';
import type { OrderCountsView } from '@shared/work-views';
import type { QueryState } from '@renderer/lib/live-query';
import { useLiveQuery, usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';
import { queueQuery, useOrdersStore } from '@renderer/stores/orders-store';
import { matchOf } from '@renderer/lib/order-filters';

/** Orders per orders.list call: a page of the queue. */
export const PAGE_SIZE = 100;

/** A row of the queue: the order, and the order it may repeat (a possible duplicate), if any. */
export interface QueueRow {
  order: AppOrder;
  duplicateOf: string | null;
}

const useFilter = () =>
  useOrdersStore(
    useShallow((s) => ({
      statuses: s.statuses,
      search: s.search,
      preset: s.preset,
      customFrom: s.customFrom,
      customTo: s.customTo,
    })),
  );

/**
 * The queue: the local order mirror filtered as the store says, newest first, read a page at a
 * time where the list is scrolled to (offset pages, in any order), and again when orders change.
 */
export function useOrderQueue(): PagedQueryHook<QueueRow> {
  const query = queueQuery(useFilter());
  return usePagedQuery<QueueRow>(
    async (read, index) => {
      const page = await read('orders.list', {
        ...query,
        limit: PAGE_SIZE,
        offset: index * PAGE_SIZE,
      });
      if (!page.ok) return page;
      const { orders, total, possibleDuplicateOf } = page.value;
      const rows = orders.map((order) => ({
        order,
        duplicateOf: possibleDuplicateOf[order.id] ?? null,
      }));
      return { ok: true, value: { rows, total, next: null } };
    },
    [query],
    { pageSize: PAGE_SIZE, randomAccess: true },
  );
}

/** How many orders of each status match the search and dates, kept up to date. */
export function useOrderCounts(): QueryState<OrderCountsView> {
  const match = matchOf(useFilter());
  return useLiveQuery((read) => read('orders.counts', match), [match]);
}
