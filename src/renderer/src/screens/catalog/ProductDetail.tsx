import { useEffect, useRef } from 'react';
import type { ProductRead } from '@shared/api';
import { ProductImage } from '@renderer/components/ProductImage';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { StatusBadge } from '@renderer/components/StatusBadge';
import { formatMoney, humanize, priceUnit } from '@renderer/lib/format';
import { useProduct } from './use-catalog';
import { SupplementFacts } from './SupplementFacts';

function Usage({ product }: { product: ProductRead }) {
  const u = product.recommendedUsage;
  const parts = [
    ['morning', u.morning],
    ['afternoon', u.afternoon],
    ['evening', u.evening],
    ['bedtime', u.sleep],
  ] as const;
  const given = parts.filter(([, n]) => n > 0);
  if (given.length === 0) return <>As directed</>;
  return <>{given.map(([when, n]) => `${n} ${when}`).join(', ')}</>;
}

function Tags({ label, values }: { label: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <ul className="tags" aria-label={label}>
          {values.map((v) => (
            <li key={v} className="tag">
              {humanize(v)}
            </li>
          ))}
        </ul>
      </dd>
    </div>
  );
}

function Details({ product }: { product: ProductRead }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // In a narrow window the details sit below the list: bring them into view.
    if (window.matchMedia('(max-width: 960px)').matches) ref.current?.scrollIntoView();
  }, [product.id]);
  return (
    <article ref={ref} className="product-detail" aria-labelledby="product-heading">
      <div className="product-detail-head">
        <ProductImage src={product.productImage} name={product.name} />
        <div>
          <h2 id="product-heading">{product.name}</h2>
          <p className="product-detail-price">
            {formatMoney(product.price)} <span className="muted">per {priceUnit(product)}</span>
          </p>
          <p className="product-detail-badges">
            <StatusBadge status={product.status} />
            <span className="tag">{product.external ? 'External product' : 'In daily packs'}</span>
          </p>
        </div>
      </div>
      <p>{product.description}</p>
      <dl className="facts-list">
        <div>
          <dt>Price</dt>
          <dd>
            {formatMoney(product.price)} <span className="muted">per {priceUnit(product)}</span>
          </dd>
        </div>
        <div>
          <dt>Pack description</dt>
          <dd>{product.packDescription}</dd>
        </div>
        {!product.external && (
          // An external product (a powder, a liquid) is not a pill: its serving is in the panel.
          <div>
            <dt>Form</dt>
            <dd>{humanize(product.form)}</dd>
          </div>
        )}
        <div>
          <dt>External</dt>
          <dd>
            {product.external
              ? 'Yes, shipped beside the daily packs'
              : 'No, goes into the daily packs'}
          </dd>
        </div>
        <div>
          <dt>Recommended use</dt>
          <dd>
            <Usage product={product} />
          </dd>
        </div>
        <div>
          <dt>Product number</dt>
          <dd>{product.id}</dd>
        </div>
        <Tags label="Certifications" values={product.certifications} />
        <Tags label="Allergen information" values={product.allergens} />
      </dl>
      <SupplementFacts product={product} />
    </article>
  );
}

/** One product, read from the local mirror. */
export function ProductDetail({ id }: { id: number }) {
  const detail = useProduct(id);
  if (detail.status === 'loading') return <Loading label="Loading product…" />;
  if (detail.status === 'failed' && (!detail.data || detail.error.kind === 'not-found')) {
    if (detail.error.kind === 'not-found')
      return <Empty title={`There is no product number ${id}.`} />;
    return (
      <Failed
        what="The product could not be loaded."
        error={detail.error}
        onRetry={detail.refresh}
      />
    );
  }
  return <Details product={detail.data!} />;
}
