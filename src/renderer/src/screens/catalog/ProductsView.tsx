import { useCallback } from 'react';
import type { ProductStatus } from '@shared/api';
import { Empty } from '@renderer/components/States';
import { STATUS_LABELS, plural } from '@renderer/lib/format';
import { useDebounced } from '@renderer/lib/use-debounced';
import type { ProductRead } from '@shared/api';
import type { PagedState } from '@renderer/lib/paged-query';
import { SEARCH_MAX, STATUSES, isFiltered, useCatalogStore } from '@renderer/stores/catalog-store';
import { useProductCounts, useProductList } from './use-catalog';
import { ProductDetail } from './ProductDetail';
import { ProductList } from './ProductList';
import { SearchField } from '@renderer/components/SearchField';

function Filters() {
  const statuses = useCatalogStore((s) => s.statuses);
  const counts = useProductCounts();
  const setStatuses = useCatalogStore((s) => s.setStatuses);
  const setSearch = useCatalogStore((s) => s.setSearch);
  const text = useCatalogStore((s) => s.searchText);
  const setText = useCatalogStore((s) => s.setSearchText);
  const apply = useCallback((value: string) => setSearch(value), [setSearch]);
  useDebounced(text, 250, apply);

  const toggle = (status: ProductStatus) =>
    setStatuses(
      statuses.includes(status) ? statuses.filter((s) => s !== status) : [...statuses, status],
    );

  return (
    <div className="filters">
      <SearchField
        id="product-search"
        label="Search products"
        placeholder="Search by name"
        value={text}
        onChange={setText}
        maxLength={SEARCH_MAX}
      />
      <fieldset className="chips">
        <legend className="visually-hidden">Filter by status</legend>
        {STATUSES.map((status) => (
          <label key={status} className="chip">
            <input
              type="checkbox"
              checked={statuses.includes(status)}
              onChange={() => toggle(status)}
            />
            <span>{STATUS_LABELS[status]}</span>
            {counts[status] !== undefined && (
              <span className="chip-count" aria-hidden="true">
                {counts[status]}
              </span>
            )}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

function Summary({ list }: { list: PagedState<ProductRead> }) {
  const { total } = list;
  const loaded = list.status === 'ready' && !list.stale;
  const filtered = useCatalogStore(isFiltered);
  return (
    <p className="summary muted" role="status">
      {loaded ? (filtered ? `${plural(total, 'product')} match` : plural(total, 'product')) : ''}
    </p>
  );
}

/** Products with search, status filter and counts; the selected product's details beside them. */
export function ProductsView({
  selectedId,
  invalidId,
}: {
  selectedId: number | null;
  invalidId: string | null;
}) {
  const list = useProductList();
  return (
    <div className="master-detail catalog-layout">
      <section className="master card" aria-labelledby="products-heading">
        <h2 id="products-heading" className="visually-hidden">
          Products
        </h2>
        <Filters />
        <Summary list={list.state} />
        <ProductList list={list} selectedId={selectedId} />
      </section>
      <section className="detail card" aria-label="Product details" tabIndex={0}>
        {selectedId !== null ? (
          <ProductDetail id={selectedId} />
        ) : invalidId !== null ? (
          <Empty title={`"${invalidId}" is not a product number.`} />
        ) : (
          <Empty title="Select a product to see its details and supplement facts." />
        )}
      </section>
    </div>
  );
}
