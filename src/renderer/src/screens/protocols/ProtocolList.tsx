import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type UIEvent,
} from 'react';
import { Link, useLocation } from 'wouter';
import { ProtocolColumn, type ProtocolRowView } from '@shared/protocol-views';
import { PageError, SkeletonRow } from '@renderer/components/PageError';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { rowAt, type PagedState } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { useAppStore } from '@renderer/stores/app-store';
import { PAGE, isFiltered, useProtocolsStore } from '@renderer/stores/protocols-store';
import { ColumnHeader } from './ColumnHeader';
import { ProtocolRow, rowHeight } from './ProtocolRow';

/** Rows moved by PageUp / PageDown. */
const PAGE_ROWS = 8;

type RowControl = 'select' | 'open' | 'conflict';

const controlAt = (root: HTMLElement | null, index: number, control: RowControl) =>
  root?.querySelector<HTMLElement>(`[data-index="${index}"] [data-row-control="${control}"]`) ??
  (control === 'conflict'
    ? (root?.querySelector<HTMLElement>(`[data-index="${index}"] [data-row-control="open"]`) ??
      null)
    : null);

function NoRows() {
  const filtered = useProtocolsStore(isFiltered);
  if (filtered) {
    return (
      <Empty title="No protocols match the search and filters.">
        <button
          type="button"
          className="button"
          onClick={() => useProtocolsStore.getState().clearFilters()}
        >
          Clear search and filters
        </button>
      </Empty>
    );
  }
  return (
    <Empty title="No protocols yet.">
      <p className="muted protocol-empty-text">
        A protocol is a patient's reusable order: products, doses, supply and shipping. Draft the
        first one; it works offline too.
      </p>
      <Link href="/protocols/new" className="button button-primary">
        New protocol
      </Link>
    </Empty>
  );
}

/** What a search, filter or sort is, as far as the list's scroll position is concerned. */
const queryKey = (s: {
  searchText: string;
  sort: string;
  direction: string | null;
  syncStates: readonly string[];
  productId: number | null;
  due: string | null;
}) =>
  [s.searchText.trim(), s.sort, s.direction, s.syncStates.join(), s.productId, s.due].join(
    '\u0000',
  );

/** The columns hidden, as the list's styles read them (data-hidden="supply shipping"). */
const hiddenOf = (shown: readonly ProtocolColumn[]) =>
  ProtocolColumn.options.filter((c) => !shown.includes(c)).join(' ');

/** The ids of the rows read, in the list's order (a shift-click's range is taken among them). */
const idsInOrder = (pages: PagedState<ProtocolRowView>['pages']): string[] =>
  [...pages.keys()].sort((a, b) => a - b).flatMap((k) => pages.get(k)!.map((p) => p.localId));

/**
 * The protocols matching the search and filters (the screen's live paged query), virtualised:
 * only the rows on screen are in the DOM, and their pages are read as the user scrolls. A list of
 * rows, each with a checkbox for the batch and a link to its editor. One row at a time is in the
 * Tab order (roving tabindex): arrows move between rows, Space toggles the row's checkbox
 * (Shift+Space: a range from the last one toggled), Enter opens it.
 */
export function ProtocolList({ list }: { list: PagedQueryHook<ProtocolRowView> }) {
  const { state, setView, retry } = list;
  const { total, stale, pages } = state;
  // On the pages alone: a list marked busy (a keystroke) keeps its keys and measurements.
  const itemAt = useCallback((i: number) => rowAt({ pages }, PAGE, i), [pages]);
  const selected = useProtocolsStore((s) => s.selected);
  const hidden = hiddenOf(useAppStore((s) => s.protocolColumns));
  // Stable for the memoised rows: a shift-click's range is taken among the rows read then.
  const read = useRef(pages);
  useEffect(() => {
    read.current = pages;
  }, [pages]);
  const toggle = useCallback(
    (localId: string, range: boolean) =>
      useProtocolsStore.getState().toggle(localId, range, range ? idsInOrder(read.current) : []),
    [],
  );
  const [, navigate] = useLocation();
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  // A window narrower than the columns chosen: the rows scroll sideways and the header with them
  // (and the other way, when Tab reaches a header button out of view).
  const followHeader = useCallback((event: UIEvent<HTMLDivElement>) => {
    const left = event.currentTarget.scrollLeft;
    if (scroller.current && scroller.current.scrollLeft !== left)
      scroller.current.scrollLeft = left;
  }, []);
  const [active, setActive] = useState(0);

  const getItemKey = useCallback(
    (i: number) => {
      const p = itemAt(i);
      // The index keeps keys unique while a live re-read moves a row across pages; the height
      // part re-measures a row whose message came or went.
      return p ? `${i}:${p.localId}:${rowHeight(p)}` : i;
    },
    [itemAt],
  );
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => rowHeight(itemAt(i)),
    getItemKey,
    overscan: 8,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0];
  const last = rows[rows.length - 1];

  // A new search, filter or sort starts at the list's top (a delete's Undo ending does not).
  // Followed outside React's render: a keystroke does not re-render the rows.
  // Whether the list is scrolled, from its scroll events: asking the element would lay the page
  // out again in the middle of a keystroke.
  const scrolled = useRef(false);
  useEffect(
    () =>
      useProtocolsStore.subscribe((now, before) => {
        if (queryKey(now) === queryKey(before)) return;
        if (scrolled.current) scroller.current?.scrollTo?.(0, 0);
        setActive(0);
      }),
    [],
  );

  useEffect(() => {
    if (first && last) setView(first.index, last.index);
  }, [first, last, setView]);

  const activeIndex = Math.min(active, Math.max(total - 1, 0));

  const focusRow = (index: number, control: RowControl) => {
    setActive(index);
    const el = controlAt(scroller.current, index, control);
    if (el) {
      el.focus();
      return;
    }
    virtualizer.scrollToIndex(index);
    requestAnimationFrame(() => controlAt(scroller.current, index, control)?.focus());
  };

  const open = (p: ProtocolRowView) => navigate(`/protocols/${p.localId}`);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const target = event.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('[data-index]');
    if (!rowEl) return;
    const index = Number(rowEl.dataset.index);
    const p = itemAt(index);
    if (!p) return;
    const control = (target.dataset.rowControl ?? 'open') as RowControl;
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + PAGE_ROWS,
      PageUp: index - PAGE_ROWS,
      Home: 0,
      End: total - 1,
    };
    const to = moves[event.key];
    if (to !== undefined && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      const next = Math.min(Math.max(to, 0), total - 1);
      if (next !== index) focusRow(next, control === 'conflict' ? 'open' : control);
      return;
    }
    if (event.key === ' ' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      if (!event.repeat) toggle(p.localId, event.shiftKey);
      return;
    }
    if (event.key === 'Enter' && control === 'select') {
      event.preventDefault();
      open(p);
    }
  };

  // The checkbox's own Space activation happens on key up; the key down above already toggled.
  const onKeyUp = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === ' ' && (event.target as HTMLElement).dataset.rowControl === 'select')
      event.preventDefault();
  };

  const onLinkClick = useCallback(
    (event: MouseEvent<HTMLAnchorElement>, p: ProtocolRowView) => {
      // Shift-click extends the selection, Ctrl/Cmd-click toggles one row, as in a file manager.
      // (In the capture phase: wouter's Link ignores clicks with a modifier key.)
      if (event.shiftKey || event.ctrlKey || event.metaKey) {
        event.preventDefault();
        toggle(p.localId, event.shiftKey);
      }
    },
    [toggle],
  );

  if (state.status === 'failed' && state.error) {
    return <Failed what="Protocols could not be loaded." error={state.error} onRetry={retry} />;
  }
  if (state.status === 'loading') return <Loading label="Loading protocols…" />;
  if (total === 0) return <NoRows />;

  return (
    <div className="protocol-table" data-hidden={hidden} data-scrolls-sideways="">
      <PageError
        error={state.pageError}
        what="Some protocols could not be loaded."
        onRetry={retry}
      />
      <ColumnHeader ref={header} onScroll={followHeader} />
      <div
        ref={scroller}
        className="list-scroller"
        onScroll={(event) => {
          scrolled.current = event.currentTarget.scrollTop > 0;
          const left = event.currentTarget.scrollLeft;
          if (header.current && header.current.scrollLeft !== left)
            header.current.scrollLeft = left;
        }}
      >
        <ul
          aria-label="Protocols"
          aria-busy={stale || undefined}
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
          onKeyUp={onKeyUp}
          onFocus={(event) => {
            const row = (event.target as HTMLElement).closest<HTMLElement>('[data-index]');
            if (row) setActive(Number(row.dataset.index));
          }}
        >
          {rows.map((row) => {
            const p = itemAt(row.index);
            if (!p)
              return (
                <VirtualRow
                  key={row.key}
                  index={row.index}
                  total={total}
                  start={row.start}
                  height={row.size}
                  className="list-row protocol-row"
                >
                  <SkeletonRow label="Loading protocol…" />
                </VirtualRow>
              );
            return (
              <ProtocolRow
                key={row.key}
                p={p}
                index={row.index}
                total={total}
                start={row.start}
                height={row.size}
                selected={selected.has(p.localId)}
                tabbable={row.index === activeIndex}
                onToggle={toggle}
                onLinkClick={onLinkClick}
              />
            );
          })}
        </ul>
      </div>
    </div>
  );
}
