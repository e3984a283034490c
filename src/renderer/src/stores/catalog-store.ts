import { create } from 'zustand';
import type { ProductStatus } from '@shared/api';
import { ProductQuery, type IpcError } from '@shared/ipc';

/** The longest search the contract takes (catalog.products refuses more). */
export const SEARCH_MAX = ProductQuery.shape.search.unwrap().maxLength ?? 200;

/** A search over SEARCH_MAX is not sent: the list says so instead of failing. */
export const searchTooLong = (search: string): IpcError | null =>
  search.trim().length > SEARCH_MAX
    ? {
        kind: 'invalid-arguments',
        message: `The search is too long: at most ${SEARCH_MAX} characters. Shorten it to see products.`,
        fieldErrors: [{ path: ['search'], message: `at most ${SEARCH_MAX} characters` }],
      }
    : null;

export const STATUSES: readonly ProductStatus[] = [
  'ACTIVE',
  'BACKORDERED',
  'DRAFT',
  'DISCONTINUED',
];

interface CatalogStore {
  /** No status selected means every status. */
  statuses: ProductStatus[];
  /** What is typed in the search box; `search` follows it after a pause. */
  searchText: string;
  search: string;
  setStatuses(statuses: ProductStatus[]): void;
  setSearchText(text: string): void;
  setSearch(search: string): void;
  clearFilters(): void;
  reset(): void;
}

const initial = { statuses: [] as ProductStatus[], searchText: '', search: '' };

/** Whether the list shows less than the whole catalog. */
export const isFiltered = (s: { statuses: readonly ProductStatus[]; search: string }) =>
  s.statuses.length > 0 || s.search.trim() !== '';

/**
 * The Catalog screen's own state: its search and status filter. The products, their counts and
 * details are live queries of the screen's (screens/catalog/use-catalog.ts).
 */
export const useCatalogStore = create<CatalogStore>((set) => ({
  ...initial,
  setStatuses: (statuses) => set({ statuses: STATUSES.filter((s) => statuses.includes(s)) }),
  setSearchText: (searchText) => set({ searchText }),
  setSearch: (search) => set({ search }),
  clearFilters: () => set({ ...initial }),
  reset: () => set({ ...initial }),
}));
