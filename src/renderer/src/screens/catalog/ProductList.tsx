import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { Empty, Failed, Loading } from '../../components/States';
import { StatusBadge } from '../../components/StatusBadge';
import { formatMoney, priceUnit } from '../../lib/format';
import { useCatalogStore } from '../../stores/catalog-store';

const ROW_HEIGHT = 64;

/** The filtered products, virtualised: only the rows on screen are in the DOM. */
export function ProductList({ selectedId }: { selectedId: number | null }) {
  const products = useCatalogStore((s) => s.products);
  const total = useCatalogStore((s) => s.total);
  const listState = useCatalogStore((s) => s.listState);
  const listError = useCatalogStore((s) => s.listError);
  const filtered = useCatalogStore((s) => s.statuses.length > 0 || s.search.trim() !== '');
  const reload = useCatalogStore((s) => s.reload);
  const loadMore = useCatalogStore((s) => s.loadMore);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (useCatalogStore.getState().listState === 'idle') void reload();
  }, [reload]);

  const virtualizer = useVirtualizer({
    count: products.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  useEffect(() => {
    if (last && last.index >= products.length - 10 && products.length < total) void loadMore();
  }, [last, products.length, total, loadMore]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(
      '[data-index]',
    );
    if (!current) return;
    event.preventDefault();
    const next = Number(current.dataset.index) + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0 || next >= products.length) return;
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

  if (listState === 'failed' && listError?.kind === 'invalid-arguments') {
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
  if (listState === 'failed' && listError) {
    return (
      <Failed
        what="Products could not be loaded."
        error={listError}
        onRetry={() => void reload()}
      />
    );
  }
  if ((listState === 'loading' || listState === 'idle') && products.length === 0) {
    return <Loading label="Loading products…" />;
  }
  if (products.length === 0) {
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
    <div ref={scroller} className="list-scroller">
      <ul
        aria-label="Products"
        className="list-rows"
        style={{ height: virtualizer.getTotalSize() }}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => {
          const p = products[item.index];
          if (!p) return null;
          return (
            <li
              key={p.id}
              data-index={item.index}
              aria-setsize={total}
              aria-posinset={item.index + 1}
              className="list-row"
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
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
            </li>
          );
        })}
      </ul>
    </div>
  );
}
