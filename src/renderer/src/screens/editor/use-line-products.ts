import { useCallback, useEffect } from 'react';
import type { ProductRead } from '../../../../shared/api';
import { useCatalogStore } from '../../stores/catalog-store';

export type LineProduct = ProductRead | 'loading' | 'missing';

/** The catalog entries of the protocol's products, read once each from the local mirror. */
export function useLineProducts(ids: readonly number[]): (id: number) => LineProduct {
  const details = useCatalogStore((s) => s.details);
  const loadProduct = useCatalogStore((s) => s.loadProduct);
  const key = ids.join(',');
  useEffect(() => {
    for (const id of key ? key.split(',').map(Number) : []) void loadProduct(id);
  }, [key, loadProduct]);
  return useCallback(
    (id: number): LineProduct => {
      const d = details[id];
      if (!d || d.state === 'idle' || d.state === 'loading') return 'loading';
      return d.state === 'ready' ? d.value : 'missing';
    },
    [details],
  );
}

/** A product just picked from the search is known already: no second read. */
export function rememberProduct(product: ProductRead): void {
  const store = useCatalogStore.getState();
  useCatalogStore.setState({
    details: { ...store.details, [product.id]: { state: 'ready', value: product } },
  });
}
