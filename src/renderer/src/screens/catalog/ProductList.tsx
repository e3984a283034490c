import { Link } from 'wouter';
import type { ProductRead } from '@shared/api';
import { PagedList } from '@renderer/components/PagedList';
import { Empty } from '@renderer/components/States';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, priceUnit } from '@renderer/lib/format';
import type { PagedQueryHook } from '@renderer/lib/use-query';
import { isFiltered, useCatalogStore } from '@renderer/stores/catalog-store';
import { PAGE } from './use-catalog';

/** Two lines for the name (its strength is the end of it), one for the pack, price and status. */
const ROW_HEIGHT = 74;

const WORDS = {
  failed: 'Products could not be loaded.',
  loading: 'Loading products…',
  pageFailed: 'Some products could not be loaded.',
  pending: 'Loading product…',
};

const clearFilters = () => useCatalogStore.getState().clearFilters();

/** The filtered products, virtualised: only the rows on screen are in the DOM. */
export function ProductList({
  list,
  selectedId,
}: {
  list: PagedQueryHook<ProductRead>;
  selectedId: number | null;
}) {
  const filtered = useCatalogStore(isFiltered);
  const listError = list.state.error;
  if (list.state.status === 'failed' && listError?.kind === 'invalid-arguments') {
    // The contract refused the query (a search over its limit): say what to change.
    return (
      <div role="alert">
        <Empty title="The search cannot be used.">
          <p className="muted">{listError.message}</p>
          <button type="button" className="button" onClick={clearFilters}>
            Clear search and filters
          </button>
        </Empty>
      </div>
    );
  }
  const empty = filtered ? (
    <Empty title="No products match the search and filters.">
      <button type="button" className="button" onClick={clearFilters}>
        Clear filters
      </button>
    </Empty>
  ) : (
    <Empty title="The catalog is empty. Use Sync now to fetch products from the server." />
  );
  return (
    <PagedList
      list={list}
      pageSize={PAGE}
      rowHeight={ROW_HEIGHT}
      label="Products"
      words={WORDS}
      empty={empty}
      keyOf={(p) => p.id}
      renderRow={(p) => (
        <Link
          href={`/products/${p.id}`}
          className="row-link product-row"
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
      )}
    />
  );
}
