import { create } from 'zustand';
import type { ProductRead, ProductStatus, ShippingMethodInfo } from '../../../shared/api';
import { ProductQuery, type IpcError } from '../../../shared/ipc';
import type { PricingTermsView } from '../../../shared/pricing-views';
import { call } from '../lib/ipc';

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
const PAGE = 100;

type Load<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; value: T }
  | { state: 'failed'; error: IpcError };

interface CatalogStore {
  /** No status selected means every status. */
  statuses: ProductStatus[];
  /** What is typed in the search box; `search` follows it after a pause. */
  searchText: string;
  search: string;
  products: ProductRead[];
  total: number;
  /** How many products each status has under the current search. */
  counts: Partial<Record<ProductStatus, number>>;
  listState: 'idle' | 'loading' | 'ready' | 'failed';
  listError: IpcError | null;
  loadingMore: boolean;
  details: Record<number, Load<ProductRead>>;
  shipping: Load<ShippingMethodInfo[]>;
  /** The partner's pricing terms every estimate uses, as main keeps them (catalog.pricing). */
  pricing: Load<PricingTermsView>;
  setStatuses(statuses: ProductStatus[]): void;
  setSearchText(text: string): void;
  setSearch(search: string): void;
  clearFilters(): void;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  loadProduct(id: number, force?: boolean): Promise<void>;
  loadShipping(): Promise<void>;
  loadPricing(): Promise<void>;
  /** After a sync: refresh what was already shown. */
  refresh(): void;
  reset(): void;
}

let generation = 0;
/** The newest pricing read: an older answer never replaces a newer one. */
let pricingGeneration = 0;

const query = (s: { statuses: ProductStatus[]; search: string }) => ({
  ...(s.statuses.length > 0 ? { status: s.statuses } : {}),
  ...(s.search.trim() ? { search: s.search.trim() } : {}),
});

const initial = {
  statuses: [] as ProductStatus[],
  searchText: '',
  search: '',
  products: [] as ProductRead[],
  total: 0,
  counts: {},
  listState: 'idle' as const,
  listError: null,
  loadingMore: false,
  details: {},
  shipping: { state: 'idle' } as const,
  pricing: { state: 'idle' } as const,
};

/** The local catalog mirror as the Catalog screen shows it: one filtered list, paged in. */
export const useCatalogStore = create<CatalogStore>((set, get) => ({
  ...initial,

  setStatuses(statuses) {
    set({ statuses: STATUSES.filter((s) => statuses.includes(s)) });
    void get().reload();
  },

  setSearchText: (searchText) => set({ searchText }),

  clearFilters() {
    set({ statuses: [], search: '', searchText: '' });
    void get().reload();
  },

  setSearch(search) {
    if (search === get().search) return;
    set({ search });
    void get().reload();
  },

  async reload() {
    const mine = ++generation;
    const filter = query(get());
    const tooLong = searchTooLong(filter.search ?? '');
    if (tooLong) {
      set({ listState: 'failed', listError: tooLong, products: [], total: 0, counts: {} });
      return;
    }
    set({ listState: 'loading', listError: null });
    const [page, ...counts] = await Promise.all([
      call('catalog.products', { ...filter, limit: PAGE, offset: 0 }),
      ...STATUSES.map((status) =>
        call('catalog.products', {
          ...(filter.search ? { search: filter.search } : {}),
          status: [status],
          limit: 1,
        }),
      ),
    ]);
    if (mine !== generation) return;
    if (!page.ok) {
      set({ listState: 'failed', listError: page.error, products: [], total: 0 });
      return;
    }
    const byStatus: Partial<Record<ProductStatus, number>> = {};
    counts.forEach((r, i) => {
      const status = STATUSES[i];
      if (r.ok && status) byStatus[status] = r.value.total;
    });
    set({
      listState: 'ready',
      products: page.value.products,
      total: page.value.total,
      counts: byStatus,
    });
  },

  async loadMore() {
    const s = get();
    if (s.listState !== 'ready' || s.loadingMore || s.products.length >= s.total) return;
    const mine = generation;
    set({ loadingMore: true });
    const page = await call('catalog.products', {
      ...query(s),
      limit: PAGE,
      offset: s.products.length,
    });
    if (mine !== generation) return;
    if (!page.ok) {
      set({ loadingMore: false, listState: 'failed', listError: page.error });
      return;
    }
    set({
      loadingMore: false,
      products: [...get().products, ...page.value.products],
      total: page.value.total,
    });
  },

  async loadProduct(id, force = false) {
    const current = get().details[id];
    if (!force && current && (current.state === 'ready' || current.state === 'loading')) return;
    set({ details: { ...get().details, [id]: { state: 'loading' } } });
    const result = await call('catalog.product', { id });
    set({
      details: {
        ...get().details,
        [id]: result.ok
          ? { state: 'ready', value: result.value }
          : { state: 'failed', error: result.error },
      },
    });
  },

  async loadShipping() {
    set({ shipping: { state: 'loading' } });
    const result = await call('catalog.shippingMethods', {});
    set({
      shipping: result.ok
        ? { state: 'ready', value: result.value }
        : { state: 'failed', error: result.error },
    });
  },

  async loadPricing() {
    const mine = ++pricingGeneration;
    // A reload keeps the terms on screen until the answer replaces them.
    if (get().pricing.state !== 'ready') set({ pricing: { state: 'loading' } });
    const result = await call('catalog.pricing', {});
    if (mine !== pricingGeneration) return;
    set({
      pricing: result.ok
        ? { state: 'ready', value: result.value }
        : { state: 'failed', error: result.error },
    });
  },

  refresh() {
    const s = get();
    if (s.listState !== 'idle') void s.reload();
    if (s.shipping.state !== 'idle') void s.loadShipping();
    if (s.pricing.state !== 'idle') void s.loadPricing();
    for (const [id, detail] of Object.entries(s.details)) {
      if (detail.state !== 'loading') void s.loadProduct(Number(id), true);
    }
  },

  reset() {
    generation++;
    pricingGeneration++;
    set({ ...initial });
  },
}));
