import { create } from 'zustand';
import type { AppOrder, OrderStatusRead } from '../../../shared/api';
import type { IpcError } from '../../../shared/ipc';
import type { OrderCountsView, OrderExportQuery, OrderQuery } from '../../../shared/work-views';
import { call } from '../lib/ipc';
import {
  QUEUE_STATUSES,
  matchOf,
  type DatePreset,
  type OrderFilter,
} from '../screens/orders/order-filters';

/** Orders per orders.list call: a page of the queue. */
export const PAGE_SIZE = 100;
/** Pages fetched at the same time while the user scrolls. */
const MAX_IN_FLIGHT = 2;
/** Pages kept in memory; those farthest from the view are dropped beyond this. */
const MAX_PAGES = 40;
/** How long live changes gather before the queue is read again (one query per burst). */
export const REQUERY_DELAY_MS = 400;

interface OrdersStore extends OrderFilter {
  /** What is typed in the search box; `search` follows it after a pause. */
  searchText: string;
  /** Orders matching the filter, in all (the list's length). */
  total: number;
  /** The loaded pages of the queue, by page number (offset / PAGE_SIZE). */
  pages: Record<number, AppOrder[]>;
  /** Of the loaded orders, those that may repeat another order: id → the order repeated. */
  possibleDuplicateOf: Record<string, string>;
  counts: OrderCountsView | null;
  listState: 'idle' | 'loading' | 'ready' | 'failed';
  listError: IpcError | null;
  /** A page that failed while scrolling: the rows already there stay. */
  pageError: IpcError | null;
  /** Bumped when the filter changes: the list goes back to its top. */
  filterVersion: number;
  setStatuses(statuses: readonly OrderStatusRead[]): void;
  setSearchText(text: string): void;
  setSearch(search: string): void;
  setPreset(preset: DatePreset): void;
  setCustomRange(from: string, to: string): void;
  clearFilters(): void;
  /** Reads the first page and the counts again (a new filter). */
  reload(): Promise<void>;
  /** The rows on screen (indexes, inclusive): their pages are fetched when missing. */
  view(first: number, last: number): void;
  retryPages(): void;
  /** Orders that changed (events): patched where shown, then the queue is read again soon. */
  applyLive(orders: readonly AppOrder[]): void;
  /** Reads what is on screen and the counts again, once for many calls close together. */
  requery(): void;
  reset(): void;
}

let generation = 0;
const inFlight = new Set<number>();
let wanted = { first: 0, last: 0 };
let requeryTimer: ReturnType<typeof setTimeout> | null = null;
let requerying = false;
let requeryAgain = false;

const initial = {
  statuses: [] as OrderStatusRead[],
  search: '',
  searchText: '',
  preset: 'all' as DatePreset,
  customFrom: '',
  customTo: '',
  total: 0,
  pages: {},
  possibleDuplicateOf: {},
  counts: null,
  listState: 'idle' as const,
  listError: null,
  pageError: null,
  filterVersion: 0,
};

/**
 * What the queue shows, paging aside: its search, dates and status chips. The list's pages and
 * the CSV export (orders.exportCsv) are both asked for exactly this.
 */
export const queueQuery = (filter: OrderFilter): OrderExportQuery => ({
  ...matchOf(filter),
  ...(filter.statuses.length > 0 ? { statuses: [...filter.statuses] } : {}),
});

const listQuery = (filter: OrderFilter, page: number): OrderQuery => ({
  ...queueQuery(filter),
  limit: PAGE_SIZE,
  offset: page * PAGE_SIZE,
});

/** The order at `index` of the queue, when its page is loaded. */
export const orderAt = (pages: Record<number, AppOrder[]>, index: number): AppOrder | undefined =>
  pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];

/** Keeps at most MAX_PAGES pages: those nearest to the view. */
function trim(pages: Record<number, AppOrder[]>): Record<number, AppOrder[]> {
  const keys = Object.keys(pages).map(Number);
  if (keys.length <= MAX_PAGES) return pages;
  const middle = (wanted.first + wanted.last) / 2;
  const keep = keys.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle)).slice(0, MAX_PAGES);
  return Object.fromEntries(keep.map((k) => [k, pages[k]!]));
}

/** The queue of the local order mirror: one filtered list, fetched a page at a time as it scrolls. */
export const useOrdersStore = create<OrdersStore>((set, get) => {
  const pump = () => {
    const s = get();
    if (s.listState !== 'ready' || s.pageError) return;
    for (let p = wanted.first; p <= wanted.last && inFlight.size < MAX_IN_FLIGHT; p++) {
      if (p * PAGE_SIZE >= s.total) break;
      if (s.pages[p] || inFlight.has(p)) continue;
      void fetchPage(p);
    }
  };

  const fetchPage = async (page: number) => {
    const mine = generation;
    inFlight.add(page);
    const result = await call('orders.list', listQuery(get(), page));
    if (mine !== generation) return;
    inFlight.delete(page);
    if (!result.ok) {
      set({ pageError: result.error });
      return;
    }
    set({
      pages: trim({ ...get().pages, [page]: result.value.orders }),
      total: result.value.total,
      possibleDuplicateOf: { ...get().possibleDuplicateOf, ...result.value.possibleDuplicateOf },
    });
    pump();
  };

  const loadCounts = async () => {
    const mine = generation;
    const result = await call('orders.counts', matchOf(get()));
    if (mine !== generation) return;
    set({ counts: result.ok ? result.value : null });
  };

  const refilter = (change: Partial<OrderFilter>) => {
    set({ ...change, filterVersion: get().filterVersion + 1 });
    void get().reload();
  };

  const runRequery = async () => {
    requeryTimer = null;
    if (requerying) {
      requeryAgain = true;
      return;
    }
    const s = get();
    if (s.listState !== 'ready') return;
    requerying = true;
    const mine = generation;
    const first = wanted.first;
    const last = Math.min(wanted.last, first + 4);
    try {
      const [counts, ...pages] = await Promise.all([
        call('orders.counts', matchOf(s)),
        ...Array.from({ length: last - first + 1 }, (_, i) =>
          call('orders.list', listQuery(s, first + i)),
        ),
      ]);
      if (mine !== generation) return;
      const fresh: Record<number, AppOrder[]> = {};
      const duplicates: Record<string, string> = {};
      let total = get().total;
      for (const [i, page] of pages.entries()) {
        if (!page?.ok) return; // a failed read keeps what is shown; the next change tries again
        fresh[first + i] = page.value.orders;
        Object.assign(duplicates, page.value.possibleDuplicateOf);
        total = page.value.total;
      }
      inFlight.clear();
      generation++; // pages still in flight were read before this: drop them
      set({
        pages: fresh,
        total,
        possibleDuplicateOf: duplicates,
        ...(counts?.ok ? { counts: counts.value } : {}),
      });
      pump();
    } finally {
      requerying = false;
      if (requeryAgain) {
        requeryAgain = false;
        get().requery();
      }
    }
  };

  return {
    ...initial,

    setStatuses: (statuses) =>
      // Known statuses in the chips' order, then those the app does not know, as chosen.
      refilter({
        statuses: [
          ...QUEUE_STATUSES.filter((s) => statuses.includes(s)),
          ...statuses.filter((s) => !(QUEUE_STATUSES as readonly string[]).includes(s)),
        ],
      }),
    setSearchText: (searchText) => set({ searchText }),
    setSearch(search) {
      if (search === get().search) return;
      refilter({ search });
    },
    setPreset: (preset) => refilter({ preset }),
    setCustomRange: (customFrom, customTo) => refilter({ customFrom, customTo }),
    clearFilters: () =>
      refilter({ statuses: [], search: '', preset: 'all', customFrom: '', customTo: '' }),

    async reload() {
      const mine = ++generation;
      inFlight.clear();
      wanted = { first: 0, last: 0 };
      set({ listState: 'loading', listError: null, pageError: null });
      // The rows first: the counts (every matching order grouped) may take longer to answer.
      const page = call('orders.list', listQuery(get(), 0));
      void loadCounts();
      const result = await page;
      if (mine !== generation) return;
      if (!result.ok) {
        set({ listState: 'failed', listError: result.error, pages: {}, total: 0 });
        return;
      }
      set({
        listState: 'ready',
        pages: { 0: result.value.orders },
        total: result.value.total,
        possibleDuplicateOf: result.value.possibleDuplicateOf,
      });
      pump();
    },

    view(first, last) {
      wanted = {
        first: Math.max(0, Math.floor(first / PAGE_SIZE)),
        last: Math.max(0, Math.floor(last / PAGE_SIZE)),
      };
      pump();
    },

    retryPages() {
      set({ pageError: null });
      pump();
    },

    applyLive(orders) {
      const s = get();
      if (s.listState === 'idle') return;
      const byId = new Map(orders.map((o) => [o.id, o]));
      let pages: Record<number, AppOrder[]> | null = null;
      for (const [key, rows] of Object.entries(s.pages)) {
        if (!rows.some((o) => byId.has(o.id))) continue;
        pages ??= { ...s.pages };
        pages[Number(key)] = rows.map((o) => byId.get(o.id) ?? o);
      }
      if (pages) set({ pages });
      get().requery();
    },

    requery() {
      if (get().listState === 'idle' || requeryTimer) return;
      requeryTimer = setTimeout(() => void runRequery(), REQUERY_DELAY_MS);
    },

    reset() {
      generation++;
      inFlight.clear();
      if (requeryTimer) clearTimeout(requeryTimer);
      requeryTimer = null;
      requeryAgain = false;
      set({ ...initial });
    },
  };
});
