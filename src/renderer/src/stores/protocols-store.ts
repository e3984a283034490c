import { create } from 'zustand';
import type { IpcError } from '@shared/ipc';
import type {
  DueWindow,
  ProtocolListState,
  ProtocolListView,
  ProtocolSort,
  SortDirection,
} from '@shared/protocol-views';
import { call, errorMessage } from '../lib/ipc';
import { useBatchDraftStore } from './batch-draft-store';
import { isPendingDelete } from './pending-delete-store';
import { toast } from './toast-store';

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
  /** The sort's direction; null: the sort's usual one (newest first for dates of the past). */
  direction: SortDirection | null;
  syncStates: ProtocolListState[];
  /** Only the protocols ordering this catalog product; null: any product. */
  productId: number | null;
  /** Only the protocols whose next refill falls in this window; null: any. */
  due: DueWindow | null;
  /** The protocols chosen for a batch, in the order they were chosen; kept across searches. */
  selected: ReadonlySet<string>;
  /** The row a shift-click or Shift+Space extends a range from. */
  anchor: string | null;
  selectingAll: boolean;
  selectError: IpcError | null;

  setSearchText(text: string): void;
  /*
   * The sort and filters a person chooses: each change is a step of the undo history
   * (undo.noteView), so Ctrl+Z takes it back. The search typed is not: its field undoes it.
   */
  /** Sorts by `sort`; with no direction, the sort's usual one. */
  setSort(sort: ProtocolSort, direction?: SortDirection | null): void;
  setSyncStates(states: ProtocolListState[]): void;
  setProductId(productId: number | null): void;
  setDue(due: DueWindow | null): void;
  /**
   * Clears the search and the filters: one step of the history (the filters; the search is
   * text). `asStep` false when the app clears them itself (after an import, to show its rows).
   */
  clearFilters(asStep?: boolean): void;
  /** Shows the list as an undo or redo left it: noted as no new step. */
  applyView(view: ProtocolListView): void;
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

/** The list's order until another is chosen: the last local change first. */
export const DEFAULT_SORT: ProtocolSort = 'changed';

const initial = {
  searchText: '',
  sort: DEFAULT_SORT,
  direction: null as SortDirection | null,
  syncStates: [] as ProtocolListState[],
  productId: null as number | null,
  due: null as DueWindow | null,
  selected: new Set<string>() as ReadonlySet<string>,
  anchor: null,
  selectingAll: false,
  selectError: null,
};

/** What the list is filtered by: the search typed, the sync states, the product and due window. */
export interface ProtocolFilterState {
  searchText: string;
  syncStates: readonly ProtocolListState[];
  productId: number | null;
  due: DueWindow | null;
}

/** The search and filters of the list as the contract takes them. */
export const matchOf = (s: ProtocolFilterState) => ({
  search: s.searchText.trim(),
  ...(s.syncStates.length > 0 ? { syncStates: [...s.syncStates] } : {}),
  ...(s.productId !== null ? { productId: s.productId } : {}),
  ...(s.due !== null ? { due: s.due } : {}),
});

/** The list's filters and sort, as a step of the undo history holds them (never the search). */
export const viewOf = (s: {
  syncStates: readonly ProtocolListState[];
  productId: number | null;
  due: DueWindow | null;
  sort: ProtocolSort;
  direction: SortDirection | null;
}): ProtocolListView => ({
  syncStates: [...s.syncStates],
  productId: s.productId,
  due: s.due,
  sort: s.sort,
  direction: s.direction,
});

const sameView = (a: ProtocolListView, b: ProtocolListView) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * Tells main of a change of the filters or sort a person made, as a step of the connection's
 * undo history. The change itself is shown already; a note refused only means Ctrl+Z cannot take
 * it back, which is said.
 */
async function noteView(before: ProtocolListView, after: ProtocolListView): Promise<void> {
  const result = await call('undo.noteView', { before, after });
  if (!result.ok)
    toast.error('This change of the list’s filters cannot be undone.', errorMessage(result.error), {
      topic: 'undo',
    });
}

/** The list's order as the contract takes it. */
export const orderOf = (s: { sort: ProtocolSort; direction: SortDirection | null }) => ({
  sort: s.sort,
  ...(s.direction !== null ? { direction: s.direction } : {}),
});

/** Whether the list shows less than every protocol (a search or a filter). */
export const isFiltered = (s: ProtocolFilterState) =>
  s.syncStates.length > 0 || s.productId !== null || s.due !== null || s.searchText.trim() !== '';

/**
 * The Protocols screen's state of its own: the search, sort and filters the list is read with,
 * and the selection for a batch. The rows themselves are a live paged query of the screen's
 * (ProtocolsScreen), read again whenever protocols or their jobs change.
 */
export const useProtocolsStore = create<ProtocolsStore>((set, get) => {
  /** A person's change of the filters or sort: applied, and noted as a step when it changed any. */
  const chosen = (change: Partial<ProtocolsStore>, asStep = true) => {
    const before = viewOf(get());
    set(change);
    const after = viewOf(get());
    if (asStep && !sameView(before, after)) void noteView(before, after);
  };
  return {
    ...initial,

    setSearchText: (text) => set({ searchText: text.slice(0, SEARCH_MAX) }),
    setSort: (sort, direction = null) => chosen({ sort, direction }),
    setSyncStates: (states) =>
      chosen({ syncStates: FILTER_STATES.filter((s) => states.includes(s)) }),
    setProductId: (productId) => chosen({ productId }),
    setDue: (due) => chosen({ due }),
    clearFilters: (asStep = true) =>
      chosen({ searchText: '', syncStates: [], productId: null, due: null }, asStep),
    applyView: (view) =>
      set({
        syncStates: FILTER_STATES.filter((s) => view.syncStates.includes(s)),
        productId: view.productId,
        due: view.due,
        sort: view.sort,
        direction: view.direction,
      }),

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
  };
});

// A batch made of this selection was submitted (the review clears its draft only then): the
// selection is spent, so the next one starts empty instead of offering the same orders again.
useBatchDraftStore.subscribe((draft, before) => {
  if (draft.protocolLocalIds.length === 0 && before.protocolLocalIds.length > 0)
    if (before.from === '/protocols') useProtocolsStore.getState().clearSelection();
});
