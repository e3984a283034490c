import { memo } from 'react';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { FilterSelect } from './FilterSelect';
import { useCatalogByName } from './use-protocol-list';

const ANY = '';

/**
 * "Who is on Krill Oil?": shows only the protocols whose draft orders the product chosen. The
 * products offered are the local catalog mirror's, by name (so it works offline); a product
 * chosen and since gone from the catalog stays offered by its id, so the filter can be undone.
 */
export const ProductFilter = memo(function ProductFilter() {
  const productId = useProtocolsStore((s) => s.productId);
  const setProductId = useProtocolsStore((s) => s.setProductId);
  const catalog = useCatalogByName();
  const products = catalog.data?.products ?? [];
  const known = productId === null || products.some((p) => p.id === productId);
  return (
    <FilterSelect
      id="protocol-product"
      label="Product"
      value={productId === null ? ANY : String(productId)}
      onChange={(value) => setProductId(value === ANY ? null : Number(value))}
    >
      <option value={ANY}>Any product</option>
      {!known && <option value={String(productId)}>Product #{productId}</option>}
      {products.map((p) => (
        <option key={p.id} value={String(p.id)}>
          {p.name}
        </option>
      ))}
    </FilterSelect>
  );
});
