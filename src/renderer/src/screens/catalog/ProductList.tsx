import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, priceUnit } from '@renderer/lib/format';
import type { ProductRead } from '@shared/api';
import { PageError, SkeletonRow } from '@renderer/components/PageError';
import { rowAt } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { isFiltered, useCatalogStore } from '@renderer/stores/catalog-store';
import { PAGE } from './use-catalog';

const ROW_HEIGHT = 64;

/** The filtered products, virtualised: only the rows on screen are in the DOM. */
export function ProductList({
  list,
  selectedId,
}: {
  list: PagedQueryHook<ProductRead>;
  selectedId: number | null;
}) {
  const { state, setView, retry } = list;
  const { total } = state;
  const listError = state.error;
  const filtered = useCatalogStore(isFiltered);
  const scroller = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
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
    const linkAt = (i: number) =>
      scroller.current?.querySelector<HTMLElement>(`[data-index="${i}"] a`) ?? null;
    const rendered = linkAt(next);
    if (rendered) {
      rendered.focus();
      return;
    }
    virtualizer.scrollToIndex(next);
    requestAnimationFrame(() => linkAt(next)?.focus());
  };

  if (state.status === 'failed' && listError?.kind === 'invalid-arguments') {
    // The contract refused the query (a search over its limit): say what to change.
    return (
      <div role="alert">
        <Empty title="The search cannot be used.">
          <p className="muted">{listError.message}</p>
          <button
            type="button"
            className="button"
            onClick={() => useCatalogStore.getState().clearFilters()}
          >
            Clear search and filters
          </button>
        </Empty>
      </div>
    );
  }
  if (state.status === 'failed' && listError) {
    return <Failed what="Products could not be loaded." error={listError} onRetry={retry} />;
  }
  if (state.status === 'loading') return <Loading label="Loading products…" />;
  if (total === 0) {
    return filtered ? (
      <Empty title="No products match the search and filters.">
        <button
          type="button"
          className="button"
          onClick={() => useCatalogStore.getState().clearFilters()}
        >
          Clear filters
        </button>
      </Empty>
    ) : (
      <Empty title="The catalog is empty. Use Sync now to fetch products from the server." />
    );
  }

  return (
    <>
      <PageError
        error={state.pageError}
        what="Some products could not be loaded."
        onRetry={retry}
      />
      <div ref={scroller} className="list-scroller" aria-busy={state.stale}>
        <ul
          aria-label="Products"
          className="list-rows"
          style={{ height: virtualizer.getTotalSize() }}
          onKeyDown={onKeyDown}
        >
          {items.map((item) => {
            const p = rowAt(state, PAGE, item.index);
            if (!p)
              return (
                <VirtualRow
                  key={item.index}
                  index={item.index}
                  total={total}
                  start={item.start}
                  height={ROW_HEIGHT}
                >
                  <SkeletonRow label="Loading product…" />
                </VirtualRow>
              );
            return (
              <VirtualRow
                key={p.id}
                index={item.index}
                total={total}
                start={item.start}
                height={ROW_HEIGHT}
              >
                <Link
                  href={`/products/${p.id}`}
                  className="row-link"
                  aria-current={p.id === selectedId ? 'page' : undefined}
                >
                  <span className="row-main">
                    <span className="row-title">{p.name}</span>
                    <span className="row-meta muted">
                      {p.packDescription}
                      {p.external ? ' · external' : ''}
                    </span>
                  </span>
                  <span className="row-side">
                    <span className="row-figure">
                      {formatMoney(p.price)}
                      <span className="product-price-unit muted"> / {priceUnit(p)}</span>
                    </span>
                    <StatusBadge status={p.status} />
                  </span>
                </Link>
              </VirtualRow>
            );
          })}
        </ul>
      </div>
    </>
  );
}
