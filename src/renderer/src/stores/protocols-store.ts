import { create } from 'zustand';
import type { IpcError } from '../../../shared/ipc';
import type {
  ProtocolListState,
  ProtocolSort,
  ProtocolSummaryView,
} from '../../../shared/protocol-views';
import { createCoalescer } from '../lib/coalesce';
import { call } from '../lib/ipc';
import { useBatchDraftStore } from './batch-draft-store';
import { isPendingDelete } from './pending-delete-store';

/** Rows fetched per call; the list asks for the next page as the user scrolls near the end. */
export const PAGE = 100;
/** The contract's longest search (ProtocolMatch.search). */
export const SEARCH_MAX = 200;
/** The most protocols one batch takes (the contract's ReviewBatch / SubmitBatch). */
export const BATCH_MAX = 5_000;
/** The filters the list offers, in the order shown. */
export const FILTER_STATES: readonly ProtocolListState[] = ['pending', 'in-doubt', 'conflict'];
/** Live updates (outbox and sync events) re-read the rows on screen at most this often. */
const REFRESH_EVERY_MS = 400;

interface ProtocolsStore {
  /** What is typed in the search box; the rows follow it as soon as the store can ask. */
  searchText: string;
  /** The search the rows on screen answer. */
  search: string;
  sort: ProtocolSort;
  syncStates: ProtocolListState[];
  items: ProtocolSummaryView[];
  /** The cursor each loaded page was fetched with (page k holds rows k*PAGE ...). */
  pageCursors: (string | null)[];
  nextCursor: string | null;
  /** How many protocols match the search and filters, in all. */
  total: number;
  listState: 'idle' | 'loading' | 'ready' | 'failed';
  listError: IpcError | null;
  loadingMore: boolean;
  /** True while the rows do not yet answer what is typed or chosen. */
  stale: boolean;

  /** The protocols chosen for a batch, in the order they were chosen; kept across searches. */
  selected: ReadonlySet<string>;
  /** The row a shift-click or Shift+Space extends a range from. */
  anchor: string | null;
  /** How many of the selected match the current search and filters (null while counting). */
  selectedShown: number | null;
  selectingAll: boolean;
  selectError: IpcError | null;

  setSearchText(text: string): void;
  setSort(sort: ProtocolSort): void;
  setSyncStates(states: ProtocolListState[]): void;
  clearFilters(): void;
  reload(): Promise<void>;
  loadMore(): Promise<void>;
  /** Toggles a row; with `range`, every row from the anchor to it takes the row's new state. */
  toggle(localId: string, range?: boolean): void;
  selectAllMatching(): Promise<void>;
  /** Takes these protocols out of the selection (a delete), and counts the shown ones again. */
  deselect(localIds: readonly string[]): void;
  clearSelection(): void;
  /** Something changed in main (outbox, sync): re-read the rows on screen, coalesced. */
  changed(): void;
  /** The rows the list shows (indexes into items), so a live refresh re-reads only those. */
  setVisibleRange(start: number, end: number): void;
  /** The list is on screen (live refreshes apply) until the returned function is called. */
  attach(): () => void;
  reset(): void;
}

const initial = {
  searchText: '',
  search: '',
  sort: 'changed' as ProtocolSort,
  syncStates: [] as ProtocolListState[],
  items: [] as ProtocolSummaryView[],
  pageCursors: [] as (string | null)[],
  nextCursor: null,
  total: 0,
  listState: 'idle' as const,
  listError: null,
  loadingMore: false,
  stale: false,
  selected: new Set<string>() as ReadonlySet<string>,
  anchor: null,
  selectedShown: 0 as number | null,
  selectingAll: false,
  selectError: null,
};

/** The search and filters of the list as the contract takes them. */
const matchOf = (s: { searchText: string; syncStates: ProtocolListState[] }) => ({
  search: s.searchText.trim(),
  ...(s.syncStates.length > 0 ? { syncStates: [...s.syncStates] } : {}),
});

// Module state that no component renders: which query is current, what is in flight.
/** Bumped by every new query (search, sort, filters, reset); older answers are dropped. */
let generation = 0;
let reloading = false;
let reloadWanted = false;
let refreshing = false;
let visible = { start: 0, end: 0 };
let countGeneration = 0;
/** Whether the list is on screen: live refreshes wait for it. */
let attached = false;

/**
 * The Protocols screen's list: local protocols over IPC (`protocols.list`), a page at a time,
 * with search, sort, filters and the selection for a batch.
 *
 * Search as you type without a fixed delay: at most one list query is in flight, and the newest
 * text is asked as soon as the previous answer is in (a query takes milliseconds; a debounce
 * timer would put every keystroke that far behind). Answers to an older query are dropped.
 */
export const useProtocolsStore = create<ProtocolsStore>((set, get) => {
  /** Counts the selected protocols that match the search and filters (the others stay selected). */
  const countSelectedShown = async () => {
    const mine = ++countGeneration;
    const s = get();
    if (s.selected.size === 0) {
      set({ selectedShown: 0 });
      return;
    }
    set({ selectedShown: null });
    const result = await call('protocols.matchingIds', matchOf({ ...s, searchText: s.search }));
    if (mine !== countGeneration) return;
    if (!result.ok) return;
    const selected = get().selected;
    let shown = 0;
    for (const id of result.value.localIds) if (selected.has(id)) shown++;
    set({ selectedShown: shown });
  };

  const refreshVisible = async () => {
    const s = get();
    if (s.listState !== 'ready' || s.pageCursors.length === 0) return;
    if (refreshing || reloading || s.loadingMore) {
      get().changed();
      return;
    }
    refreshing = true;
    const mine = generation;
    try {
      const first = Math.min(Math.floor(visible.start / PAGE), s.pageCursors.length - 1);
      const last = Math.min(Math.floor(visible.end / PAGE), s.pageCursors.length - 1);
      const items = s.items.slice(0, first * PAGE);
      const cursors = s.pageCursors.slice(0, first);
      const match = matchOf({ searchText: s.search, syncStates: s.syncStates });
      let cursor = s.pageCursors[first] ?? null;
      let next: string | null = null;
      let total = s.total;
      let k = first;
      for (; k <= last; k++) {
        cursors.push(cursor);
        const page = await call('protocols.list', { ...match, sort: s.sort, limit: PAGE, cursor });
        // A new query replaced this one, or a failure: keep what is shown (the next event retries).
        if (mine !== generation || !page.ok) return;
        items.push(...page.value.items);
        total = page.value.total;
        next = page.value.nextCursor;
        cursor = next;
        if (next === null) break;
      }
      // The pages below the refreshed ones are kept when the chain of cursors still meets them.
      const now = get();
      const after = k + 1;
      const keepRest = next !== null && now.pageCursors[after] === next;
      set({
        items: keepRest ? [...items, ...now.items.slice(after * PAGE)] : items,
        pageCursors: keepRest ? [...cursors, ...now.pageCursors.slice(after)] : cursors,
        nextCursor: keepRest ? now.nextCursor : next,
        total,
      });
      if (now.selected.size > 0 && now.syncStates.length > 0) void countSelectedShown();
    } finally {
      refreshing = false;
    }
  };

  // Live changes re-read the rows on screen at most every REFRESH_EVERY_MS, one read at a time.
  const refresher = createCoalescer(refreshVisible, { intervalMs: REFRESH_EVERY_MS });

  return {
    ...initial,

    setSearchText(searchText) {
      const text = searchText.slice(0, SEARCH_MAX);
      if (text === get().searchText) return;
      set({ searchText: text });
      if (text.trim() === get().search && !get().stale) return;
      void get().reload();
    },

    setSort(sort) {
      if (sort === get().sort) return;
      set({ sort });
      void get().reload();
    },

    setSyncStates(states) {
      set({ syncStates: FILTER_STATES.filter((s) => states.includes(s)) });
      void get().reload();
    },

    clearFilters() {
      set({ searchText: '', syncStates: [] });
      void get().reload();
    },

    async reload() {
      generation++;
      set({ stale: true, ...(get().listState === 'failed' ? { listState: 'loading' } : {}) });
      if (get().listState === 'idle') set({ listState: 'loading' });
      if (reloading) {
        reloadWanted = true;
        return;
      }
      reloading = true;
      try {
        do {
          reloadWanted = false;
          const mine = generation;
          const s = get();
          const match = matchOf(s);
          const page = await call('protocols.list', {
            ...match,
            sort: s.sort,
            limit: PAGE,
            cursor: null,
          });
          // Typed on (or reset) meanwhile: this answer is old; ask again at once with the newest.
          if (mine !== generation) reloadWanted = true;
          if (reloadWanted) continue;
          if (!page.ok) {
            set({
              listState: 'failed',
              listError: page.error,
              items: [],
              pageCursors: [],
              nextCursor: null,
              total: 0,
              stale: false,
            });
            return;
          }
          const before = get().search;
          set({
            listState: 'ready',
            listError: null,
            search: match.search,
            items: page.value.items,
            pageCursors: [null],
            nextCursor: page.value.nextCursor,
            total: page.value.total,
            loadingMore: false,
            stale: false,
          });
          if (get().selected.size > 0 && (before !== match.search || s.syncStates.length > 0))
            void countSelectedShown();
        } while (reloadWanted);
      } finally {
        reloading = false;
      }
    },

    async loadMore() {
      const s = get();
      if (s.listState !== 'ready' || s.stale || s.loadingMore || s.nextCursor === null) return;
      if (refreshing) return;
      const mine = generation;
      const cursor = s.nextCursor;
      set({ loadingMore: true });
      const page = await call('protocols.list', {
        ...matchOf({ searchText: s.search, syncStates: s.syncStates }),
        sort: s.sort,
        limit: PAGE,
        cursor,
      });
      if (mine !== generation) return;
      if (!page.ok) {
        set({ loadingMore: false, listState: 'failed', listError: page.error });
        return;
      }
      const now = get();
      // Pages are whole (PAGE rows) but the last, so page k starts at row k * PAGE.
      const base = now.pageCursors.length * PAGE;
      set({
        loadingMore: false,
        items: [...now.items.slice(0, base), ...page.value.items],
        pageCursors: [...now.pageCursors, cursor],
        nextCursor: page.value.nextCursor,
        total: page.value.total,
      });
    },

    toggle(localId, range = false) {
      const s = get();
      const selected = new Set(s.selected);
      const on = !selected.has(localId);
      const to = s.items.findIndex((p) => p.localId === localId);
      const from =
        range && s.anchor !== null ? s.items.findIndex((p) => p.localId === s.anchor) : -1;
      let shownDelta = 0;
      const apply = (id: string) => {
        if (on === selected.has(id)) return;
        if (on) selected.add(id);
        else selected.delete(id);
        shownDelta += on ? 1 : -1;
      };
      if (from >= 0 && to >= 0) {
        const [lo, hi] = from <= to ? [from, to] : [to, from];
        for (let i = lo; i <= hi; i++) {
          const row = s.items[i];
          if (row) apply(row.localId);
        }
      } else {
        apply(localId);
      }
      set({
        selected,
        anchor: localId,
        selectedShown: s.selectedShown === null ? null : s.selectedShown + shownDelta,
      });
    },

    async selectAllMatching() {
      const s = get();
      if (s.selectingAll) return;
      const mine = generation;
      set({ selectingAll: true, selectError: null });
      const result = await call(
        'protocols.matchingIds',
        matchOf({ searchText: s.search, syncStates: s.syncStates }),
      );
      if (mine !== generation) {
        set({ selectingAll: false });
        return;
      }
      if (!result.ok) {
        set({ selectingAll: false, selectError: result.error });
        return;
      }
      const selected = new Set(get().selected);
      const chosen = result.value.localIds.filter((id) => !isPendingDelete(id));
      for (const id of chosen) selected.add(id);
      countGeneration++;
      set({ selected, selectingAll: false, selectedShown: chosen.length });
    },

    deselect(localIds) {
      const s = get();
      if (!localIds.some((id) => s.selected.has(id))) return;
      const selected = new Set(s.selected);
      for (const id of localIds) selected.delete(id);
      set({ selected, anchor: s.anchor !== null && localIds.includes(s.anchor) ? null : s.anchor });
      void countSelectedShown();
    },

    clearSelection() {
      countGeneration++;
      set({ selected: new Set(), anchor: null, selectedShown: 0, selectError: null });
    },

    changed() {
      if (attached && get().listState === 'ready') refresher.request();
    },

    setVisibleRange(start, end) {
      visible = { start, end };
    },

    attach() {
      attached = true;
      // Back from the editor or another screen: the first page again, with the same search,
      // filters and selection (what changed meanwhile shows).
      if (get().listState === 'idle') void get().reload();
      else if (get().listState === 'ready') {
        visible = { start: 0, end: 0 };
        void get().reload();
      }
      return () => {
        attached = false;
      };
    },

    reset() {
      generation++;
      countGeneration++;
      refresher.cancel();
      set({ ...initial, selected: new Set() });
      // Another connection while the list is on screen: its protocols, at once.
      if (attached) void get().reload();
    },
  };
});

// A batch made of this selection was submitted (the review clears its draft only then): the
// selection is spent, so the next one starts empty instead of offering the same orders again.
useBatchDraftStore.subscribe((draft, before) => {
  if (draft.protocolLocalIds.length === 0 && before.protocolLocalIds.length > 0)
    if (before.from === '/protocols') useProtocolsStore.getState().clearSelection();
});
