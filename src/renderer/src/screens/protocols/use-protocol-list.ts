import { useShallow } from 'zustand/react/shallow';
import type { ProtocolSummaryView } from '@shared/protocol-views';
import { call } from '@renderer/lib/ipc';
import { usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';
import { usePendingDeleteStore } from '@renderer/stores/pending-delete-store';
import { PAGE, matchOf, useProtocolsStore } from '@renderer/stores/protocols-store';

/**
 * The protocols the list shows: the store's search, filters and sort, less those deleted on
 * screen whose Undo is offered, read a page at a time (keyset pages: each after the one before)
 * and again whenever protocols or their jobs change (their badges follow the jobs).
 */
export function useProtocolList(): PagedQueryHook<ProtocolSummaryView> {
  const { searchText, syncStates, sort } = useProtocolsStore(
    useShallow((s) => ({ searchText: s.searchText, syncStates: s.syncStates, sort: s.sort })),
  );
  const hide = usePendingDeleteStore(useShallow((s) => Object.keys(s.pending)));
  const match = matchOf({ searchText, syncStates });
  return usePagedQuery<ProtocolSummaryView>(
    async (_index, after) => {
      const page = await call('protocols.list', {
        ...match,
        ...(hide.length > 0 ? { hide } : {}),
        sort,
        limit: PAGE,
        cursor: after,
      });
      return page.ok
        ? {
            ok: true,
            value: { rows: page.value.items, total: page.value.total, next: page.value.nextCursor },
          }
        : page;
    },
    [match, sort, hide],
    { pageSize: PAGE, randomAccess: false, subjects: ['protocols', 'jobs'] },
  );
}
