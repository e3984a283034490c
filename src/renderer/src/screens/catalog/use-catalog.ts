import { useShallow } from 'zustand/react/shallow';
import type { ProductRead, ProductStatus } from '@shared/api';
import type { IpcResult } from '@shared/ipc';
import { call } from '@renderer/lib/ipc';
import type { QueryState } from '@renderer/lib/live-query';
import { useLiveQuery, usePagedQuery, type PagedQueryHook } from '@renderer/lib/use-query';
import { STATUSES, searchTooLong, useCatalogStore } from '@renderer/stores/catalog-store';

/** Products per catalog.products call. */
export const PAGE = 100;

const useFilter = () =>
  useCatalogStore(useShallow((s) => ({ statuses: s.statuses, search: s.search.trim() })));

const queryOf = (f: { statuses: readonly ProductStatus[]; search: string }) => ({
  ...(f.statuses.length > 0 ? { status: [...f.statuses] } : {}),
  ...(f.search ? { search: f.search } : {}),
});

/** The products of the local catalog mirror matching the search and filter, a page at a time. */
export function useProductList(): PagedQueryHook<ProductRead> {
  const query = queryOf(useFilter());
  return usePagedQuery<ProductRead>(
    async (read, index) => {
      // A search over the contract's limit is not sent: the list says what to change.
      const tooLong = searchTooLong(query.search ?? '');
      if (tooLong) return { ok: false, error: tooLong };
      const page = await read('catalog.products', {
        ...query,
        limit: PAGE,
        offset: index * PAGE,
      });
      return page.ok
        ? { ok: true, value: { rows: page.value.products, total: page.value.total, next: null } }
        : page;
    },
    [query],
    { pageSize: PAGE, randomAccess: true },
  );
}

/** How many products each status has under the current search. */
export function useProductCounts(): Partial<Record<ProductStatus, number>> {
  const { search } = useFilter();
  const counts = useLiveQuery(async (): Promise<
    IpcResult<Partial<Record<ProductStatus, number>>>
  > => {
    if (searchTooLong(search)) return { ok: true, value: {} };
    const answers = await Promise.all(
      STATUSES.map((status) =>
        call('catalog.products', { ...(search ? { search } : {}), status: [status], limit: 1 }),
      ),
    );
    const byStatus: Partial<Record<ProductStatus, number>> = {};
    answers.forEach((r, i) => {
      if (r.ok) byStatus[STATUSES[i]!] = r.value.total;
    });
    return { ok: true, value: byStatus };
  }, ['catalog']);
  return counts.data ?? {};
}

/** One product of the catalog mirror. */
export function useProduct(id: number): QueryState<ProductRead> & { refresh(): void } {
  return useLiveQuery((read) => read('catalog.product', { id }), [id]);
}
