import { create } from 'zustand';
import type { IpcError } from '@shared/ipc';
import type { ProtocolListState, ProtocolSort } from '@shared/protocol-views';
import { call } from '../lib/ipc';
import { useBatchDraftStore } from './batch-draft-store';
import { isPendingDelete } from './pending-delete-store';

/** Rows read per page; the list reads the pages in view as the user scrolls. */
export const PAGE = 100;
/** The contract's longest search (ProtocolMatch.search). */
export const SEARCH_MAX = 200;
/** The most protocols one batch takes (the contract's ReviewBatch / SubmitBatch). */
export const BATCH_MAX = 5_000;
/** The filters the list offers, in the order shown. */
export const FILTER_STATES: readonly ProtocolListState[] = ['pending', 'in-doubt', 'conflict'];

interface ProtocolsStore {
  /** What is typed in the search box: the list's query follows it (lib/paged-query.ts). */
  searchText: string;
  sort: ProtocolSort;
  syncStates: ProtocolListState[];
  /** Only the protocols ordering this catalog product; null: any product. */
  productId: number | null;
  /** The protocols chosen for a batch, in the order they were chosen; kept across searches. */
  selected: ReadonlySet<string>;
  /** The row a shift-click or Shift+Space extends a range from. */
  anchor: string | null;
  selectingAll: boolean;
  selectError: IpcError | null;

  setSearchText(text: string): void;
  setSort(sort: ProtocolSort): void;
  setSyncStates(states: ProtocolListState[]): void;
  setProductId(productId: number | null): void;
  clearFilters(): void;
  /**
   * Toggles a row; with `range`, every row from the anchor to it (in `order`, the ids of the rows
   * read, in the list's order) takes the row's new state.
   */
  toggle(localId: string, range?: boolean, order?: readonly string[]): void;
  selectAllMatching(): Promise<void>;
  /** Takes these protocols out of the selection (a delete). */
  deselect(localIds: readonly string[]): void;
  clearSelection(): void;
  reset(): void;
}

const initial = {
  searchText: '',
  sort: 'changed' as ProtocolSort,
  syncStates: [] as ProtocolListState[],
  productId: null as number | null,
  selected: new Set<string>() as ReadonlySet<string>,
  anchor: null,
  selectingAll: false,
  selectError: null,
};

/** What the list is filtered by: the search typed, the sync states and the product chosen. */
export interface ProtocolFilterState {
  searchText: string;
  syncStates: readonly ProtocolListState[];
  productId: number | null;
}

/** The search and filters of the list as the contract takes them. */
export const matchOf = (s: ProtocolFilterState) => ({
  search: s.searchText.trim(),
  ...(s.syncStates.length > 0 ? { syncStates: [...s.syncStates] } : {}),
  ...(s.productId !== null ? { productId: s.productId } : {}),
});

/** Whether the list shows less than every protocol (a search or a filter). */
export const isFiltered = (s: ProtocolFilterState) =>
  s.syncStates.length > 0 || s.productId !== null || s.searchText.trim() !== '';

/**
 * The Protocols screen's state of its own: the search, sort and filters the list is read with,
 * and the selection for a batch. The rows themselves are a live paged query of the screen's
 * (ProtocolsScreen), read again whenever protocols or their jobs change.
 */
export const useProtocolsStore = create<ProtocolsStore>((set, get) => ({
  ...initial,

  setSearchText: (text) => set({ searchText: text.slice(0, SEARCH_MAX) }),
  setSort: (sort) => set({ sort }),
  setSyncStates: (states) => set({ syncStates: FILTER_STATES.filter((s) => states.includes(s)) }),
  setProductId: (productId) => set({ productId }),
  clearFilters: () => set({ searchText: '', syncStates: [], productId: null }),

  toggle(localId, range = false, order = []) {
    const s = get();
    const selected = new Set(s.selected);
    const on = !selected.has(localId);
    const to = order.indexOf(localId);
    const from = range && s.anchor !== null ? order.indexOf(s.anchor) : -1;
    const apply = (id: string) => (on ? selected.add(id) : selected.delete(id));
    if (from >= 0 && to >= 0) {
      const [lo, hi] = from <= to ? [from, to] : [to, from];
      for (let i = lo; i <= hi; i++) apply(order[i]!);
    } else apply(localId);
    set({ selected, anchor: localId });
  },

  async selectAllMatching() {
    const s = get();
    if (s.selectingAll) return;
    set({ selectingAll: true, selectError: null });
    const result = await call('protocols.matchingIds', matchOf(s));
    if (!result.ok) {
      set({ selectingAll: false, selectError: result.error });
      return;
    }
    const selected = new Set(get().selected);
    for (const id of result.value.localIds) if (!isPendingDelete(id)) selected.add(id);
    set({ selected, selectingAll: false });
  },

  deselect(localIds) {
    const s = get();
    if (!localIds.some((id) => s.selected.has(id))) return;
    const selected = new Set(s.selected);
    for (const id of localIds) selected.delete(id);
    set({ selected, anchor: s.anchor !== null && localIds.includes(s.anchor) ? null : s.anchor });
  },

  clearSelection: () => set({ selected: new Set(), anchor: null, selectError: null }),

  reset: () => set({ ...initial, selected: new Set() }),
}));

// A batch made of this selection was submitted (the review clears its draft only then): the
// selection is spent, so the next one starts empty instead of offering the same orders again.
useBatchDraftStore.subscribe((draft, before) => {
  if (draft.protocolLocalIds.length === 0 && before.protocolLocalIds.length > 0)
    if (before.from === '/protocols') useProtocolsStore.getState().clearSelection();
});
