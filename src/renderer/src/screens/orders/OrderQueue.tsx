import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Empty, Failed, Loading } from '../../components/States';
import { describeError } from '../../lib/ipc';
import { orderAt, useOrdersStore } from '../../stores/orders-store';
import { isFiltered } from './order-filters';
import { OrderRow, PendingRow, ROW_HEIGHT } from './OrderRow';

const KEYS = ['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'];

function PageError() {
  const error = useOrdersStore((s) => s.pageError);
  const retry = useOrdersStore((s) => s.retryPages);
  if (!error) return null;
  const { title, detail } = describeError(error);
  return (
    <div className="notice notice-error order-page-error" role="alert">
      <p className="notice-title">Some orders could not be loaded. {title}</p>
      {detail && <p>{detail}</p>}
      <p>
        <button type="button" className="button button-small" onClick={retry}>
          Try again
        </button>
      </p>
    </div>
  );
}

/**
 * The queue, newest first, virtualised: only the rows in view are in the DOM, and only their
 * pages are read from the mirror (a placeholder stands for a row until its page arrives).
 */
export function OrderQueue({ selectedId }: { selectedId: string | null }) {
  const pages = useOrdersStore((s) => s.pages);
  const duplicateOf = useOrdersStore((s) => s.possibleDuplicateOf);
  const total = useOrdersStore((s) => s.total);
  const listState = useOrdersStore((s) => s.listState);
  const listError = useOrdersStore((s) => s.listError);
  const filterVersion = useOrdersStore((s) => s.filterVersion);
  const filtered = useOrdersStore(isFiltered);
  const reload = useOrdersStore((s) => s.reload);
  const view = useOrdersStore((s) => s.view);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (useOrdersStore.getState().listState === 'idle') void reload();
  }, [reload]);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => view(first, last), [first, last, view]);
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
    if (!KEYS.includes(event.key)) return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[data-index]',
    );
    if (!current) return;
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

  if (listState === 'failed' && listError) {
    return (
      <Failed what="Orders could not be loaded." error={listError} onRetry={() => void reload()} />
    );
  }
  if ((listState === 'loading' || listState === 'idle') && total === 0) {
    return <Loading label="Loading orders…" />;
  }
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
      <PageError />
      <div
        ref={scroller}
        className="list-scroller order-scroller"
        aria-busy={listState === 'loading'}
      >
        <ul
          aria-label="Orders"
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const order = orderAt(pages, item.index);
            return (
              <li
                key={item.index}
                data-index={item.index}
                aria-setsize={total}
                aria-posinset={item.index + 1}
                className="list-row"
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              >
                {order ? (
                  <OrderRow
                    order={order}
                    selected={order.id === selectedId}
                    duplicateOf={duplicateOf[order.id]}
                  />
                ) : (
                  <PendingRow />
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </>
  );
}
