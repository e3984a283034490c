import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type KeyboardEvent } from 'react';
import { PageError, SkeletonRow } from '@renderer/components/PageError';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { rowAt, type PagedState } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { useOrdersStore } from '@renderer/stores/orders-store';
import { isFiltered } from '@renderer/lib/order-filters';
import { OrderRow, ROW_HEIGHT } from './OrderRow';
import { PAGE_SIZE, type QueueRow } from './use-order-queue';

const KEYS = ['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'];

/** The ids of the rows read so far, in the queue's order (a range selection spans these). */
function idsInOrder(state: PagedState<QueueRow>): string[] {
  const ids: string[] = [];
  for (let i = 0; i < state.total; i++) {
    const row = rowAt(state, PAGE_SIZE, i);
    if (row) ids.push(row.order.id);
  }
  return ids;
}

/**
 * The queue, newest first, virtualised: only the rows in view are in the DOM, and only their
 * pages are read from the mirror (a placeholder stands for a row until its page arrives).
 * Arrows move between rows; Space toggles the row's checkbox for a bulk action (Shift+Space: a
 * range from the last one toggled), as in the protocol list; Enter opens the order.
 */
export function OrderQueue({
  list,
  selectedId,
}: {
  list: PagedQueryHook<QueueRow>;
  selectedId: string | null;
}) {
  const { state, setView, retry } = list;
  const { total } = state;
  const filterVersion = useOrdersStore((s) => s.filterVersion);
  const filtered = useOrdersStore(isFiltered);
  const scroller = useRef<HTMLDivElement>(null);
  const checked = useOrdersStore((s) => s.selected);
  const read = useRef(state);
  read.current = state;
  const toggle = useCallback(
    (orderId: string, range: boolean) =>
      useOrdersStore.getState().toggle(orderId, range, range ? idsInOrder(read.current) : []),
    [],
  );

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => setView(first, last), [first, last, setView]);
  useEffect(() => {
    scroller.current?.scrollTo?.({ top: 0 });
  }, [filterVersion]);

  const focusRow = (index: number) => {
    const target = Math.max(0, Math.min(total - 1, index));
    const linkAt = () =>
      scroller.current?.querySelector<HTMLElement>(`[data-index="${target}"] a`) ?? null;
    const rendered = linkAt();
    if (rendered) {
      rendered.focus();
      return;
    }
    virtualizer.scrollToIndex(target, { align: 'auto' });
    // The row appears once its page is there: try for a few frames.
    let tries = 0;
    const attempt = () => {
      const link = linkAt();
      if (link) link.focus();
      else if (tries++ < 30) requestAnimationFrame(attempt);
    };
    requestAnimationFrame(attempt);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[data-index]',
    );
    if (!current) return;
    if (event.key === ' ') {
      event.preventDefault();
      const row = rowAt(state, PAGE_SIZE, Number(current.dataset.index));
      if (row && !event.repeat) toggle(row.order.id, event.shiftKey);
      return;
    }
    if (!KEYS.includes(event.key)) return;
    event.preventDefault();
    const at = Number(current.dataset.index);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 0) / ROW_HEIGHT) - 1);
    const next = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: total - 1,
      PageDown: at + page,
      PageUp: at - page,
    }[event.key]!;
    focusRow(next);
  };

  if (state.status === 'failed' && state.error) {
    return <Failed what="Orders could not be loaded." error={state.error} onRetry={retry} />;
  }
  if (state.status === 'loading') return <Loading label="Loading orders…" />;
  if (total === 0) {
    return filtered ? (
      <Empty title="No orders match the search and filters.">
        <button
          type="button"
          className="button"
          onClick={() => useOrdersStore.getState().clearFilters()}
        >
          Clear filters
        </button>
      </Empty>
    ) : (
      <Empty title="No orders yet. Orders sent from this app, and those Sync now finds on the server, appear here." />
    );
  }

  return (
    <>
      <PageError error={state.pageError} what="Some orders could not be loaded." onRetry={retry} />
      <div ref={scroller} className="list-scroller order-scroller" aria-busy={state.stale}>
        <ul
          aria-label="Orders"
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const row = rowAt(state, PAGE_SIZE, item.index);
            return (
              <VirtualRow
                key={item.index}
                index={item.index}
                total={total}
                start={item.start}
                height={ROW_HEIGHT}
                className="list-row order-row"
              >
                {row ? (
                  <OrderRow
                    order={row.order}
                    selected={row.order.id === selectedId}
                    checked={checked.has(row.order.id)}
                    onToggle={toggle}
                    duplicateOf={row.duplicateOf ?? undefined}
                  />
                ) : (
                  <SkeletonRow label="Loading order…" />
                )}
              </VirtualRow>
            );
          })}
        </ul>
      </div>
    </>
  );
}
