import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent, type Key, type ReactNode } from 'react';
import { PageError, SkeletonRow } from '@renderer/components/PageError';
import { Failed, Loading } from '@renderer/components/States';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { rowAt } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';

/**
 * A paged live query shown as a virtualised list of links (@tanstack/react-virtual): only the
 * rows on screen are in the DOM, their pages read as the user scrolls; a row not read yet is a
 * skeleton. Up and down arrows move the focus between the rows' links, scrolling to one not
 * rendered. Before the rows: the first page loading, failed, or an empty list (`empty`).
 */
export function PagedList<Row>({
  list,
  pageSize,
  rowHeight,
  label,
  scrollerClass,
  words,
  empty,
  keyOf,
  renderRow,
}: {
  list: PagedQueryHook<Row>;
  pageSize: number;
  rowHeight: number;
  /** The list's accessible name. */
  label: string;
  /** Extra classes of the scroller, besides list-scroller. */
  scrollerClass?: string;
  words: {
    /** "Patients could not be listed." */
    failed: string;
    loading: string;
    /** A page that failed while scrolling: "Some patients could not be loaded." */
    pageFailed: string;
    /** A row not read yet, for a screen reader. */
    pending: string;
  };
  /** What an empty list shows. */
  empty: ReactNode;
  /** A read row's key (a row not read yet is keyed by its index). */
  keyOf(row: Row, index: number): Key;
  /**
   * A read row: a link with class row-link, or an element with data-row-focus and tabIndex 0
   * holding several links (the arrows move between those).
   */
  renderRow(row: Row): ReactNode;
}) {
  const { state, setView, retry } = list;
  const { total } = state;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => setView(first, last), [first, last, setView]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[data-index]',
    );
    if (!current) return;
    event.preventDefault();
    const next = Number(current.dataset.index) + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= total) return;
    // A row's own focus stop (data-row-focus: a row holding several links), else its link.
    const linkAt = (i: number) =>
      scroller.current?.querySelector<HTMLElement>(
        `[data-index="${i}"] [data-row-focus], [data-index="${i}"] a`,
      ) ?? null;
    const rendered = linkAt(next);
    if (rendered) return rendered.focus();
    virtualizer.scrollToIndex(next);
    requestAnimationFrame(() => linkAt(next)?.focus());
  };

  if (state.status === 'failed' && state.error) {
    return <Failed what={words.failed} error={state.error} onRetry={retry} />;
  }
  if (state.status === 'loading') return <Loading label={words.loading} />;
  if (total === 0) return <>{empty}</>;
  return (
    <>
      <PageError error={state.pageError} what={words.pageFailed} onRetry={retry} />
      <div
        ref={scroller}
        className={scrollerClass ? `list-scroller ${scrollerClass}` : 'list-scroller'}
        aria-busy={state.stale}
      >
        <ul
          aria-label={label}
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const row = rowAt(state, pageSize, item.index);
            return (
              <VirtualRow
                key={row === undefined ? item.index : keyOf(row, item.index)}
                index={item.index}
                total={total}
                start={item.start}
                height={rowHeight}
              >
                {row === undefined ? <SkeletonRow label={words.pending} /> : renderRow(row)}
              </VirtualRow>
            );
          })}
        </ul>
      </div>
    </>
  );
}
