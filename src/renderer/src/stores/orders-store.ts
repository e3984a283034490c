import { create } from 'zustand';
import type { OrderStatusRead } from '@shared/api';
import type { OrderExportQuery } from '@shared/work-views';
import {
  QUEUE_STATUSES,
  matchOf,
  type DatePreset,
  type OrderFilter,
} from '@renderer/lib/order-filters';

interface OrdersStore extends OrderFilter {
  /** What is typed in the search box; `search` follows it after a pause. */
  searchText: string;
  /** Bumped when the filter changes: the list goes back to its top. */
  filterVersion: number;
  setStatuses(statuses: readonly OrderStatusRead[]): void;
  setSearchText(text: string): void;
  setSearch(search: string): void;
  setPreset(preset: DatePreset): void;
  setCustomRange(from: string, to: string): void;
  clearFilters(): void;
  /**
   * The orders chosen for a bulk action (cancel, export, print schedules): cleared when the filter
   * or search changes and once a cancel or an export is done.
   */
  selected: ReadonlySet<string>;
  /** The row a shift-click or Shift+Space extends a range from. */
  anchor: string | null;
  /**
   * Toggles an order; with `range`, every order from the anchor to it (in `order`, the ids of the
   * rows read, in the queue's order) takes its new state, as the protocol list does.
   */
  toggle(orderId: string, range?: boolean, order?: readonly string[]): void;
  clearSelection(): void;
  reset(): void;
}

const initial = {
  statuses: [] as OrderStatusRead[],
  search: '',
  searchText: '',
  preset: 'all' as DatePreset,
  customFrom: '',
  customTo: '',
  filterVersion: 0,
  selected: new Set<string>() as ReadonlySet<string>,
  anchor: null as string | null,
};

/**
 * What the queue shows, paging aside: its search, dates and status chips. The list's pages and
 * the CSV export (orders.exportCsv) are both asked for exactly this.
 */
export const queueQuery = (filter: OrderFilter): OrderExportQuery => ({
  ...matchOf(filter),
  ...(filter.statuses.length > 0 ? { statuses: [...filter.statuses] } : {}),
});

/**
 * The order queue's own state: its search, dates and status chips. The orders themselves are the
 * screen's live queries (screens/orders/use-order-queue.ts), read again when orders change.
 */
export const useOrdersStore = create<OrdersStore>((set, get) => {
  // A new filter or search clears the selection: a count must never include rows out of view
  // (docs/decisions.md, "Bulk actions on the order queue").
  const refilter = (change: Partial<OrderFilter>) =>
    set({ ...change, filterVersion: get().filterVersion + 1, selected: new Set(), anchor: null });

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
    clearFilters() {
      // The box too: else it keeps the words the queue no longer searches for.
      set({ searchText: '' });
      refilter({ statuses: [], search: '', preset: 'all', customFrom: '', customTo: '' });
    },
    toggle(orderId, range = false, order = []) {
      const s = get();
      const selected = new Set(s.selected);
      const on = !selected.has(orderId);
      const to = order.indexOf(orderId);
      const from = range && s.anchor !== null ? order.indexOf(s.anchor) : -1;
      const apply = (id: string) => (on ? selected.add(id) : selected.delete(id));
      if (from >= 0 && to >= 0) {
        const [lo, hi] = from <= to ? [from, to] : [to, from];
        for (let i = lo; i <= hi; i++) apply(order[i]!);
      } else apply(orderId);
      set({ selected, anchor: orderId });
    },
    clearSelection: () => set({ selected: new Set(), anchor: null }),
    reset: () => set({ ...initial, selected: new Set() }),
  };
});
