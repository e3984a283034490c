import { Link, useRoute } from 'wouter';
import { ProductsView } from './ProductsView';
import { ShippingMethods } from './ShippingMethods';

/** The catalog (routes under /catalog): products with their details, and shipping methods. */
export default function CatalogScreen() {
  const [onShipping] = useRoute('/shipping');
  const [onProduct, params] = useRoute<{ id: string }>('/products/:id');
  const raw = onProduct ? params.id : null;
  const id = raw !== null && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  return (
    <div className="screen screen-wide">
      <div className="screen-head">
        <h1>Catalog</h1>
        <nav aria-label="Catalog sections" className="tabs">
          <Link href="/" className="tab" aria-current={onShipping ? undefined : 'page'}>
            Products
          </Link>
          <Link href="/shipping" className="tab" aria-current={onShipping ? 'page' : undefined}>
            Shipping methods
          </Link>
        </nav>
      </div>
      {onShipping ? (
        <ShippingMethods />
      ) : (
        <ProductsView selectedId={id} invalidId={raw !== null && id === null ? raw : null} />
      )}
    </div>
  );
}
