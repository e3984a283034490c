import { Info } from 'lucide-react';
import { TOTAL_UNKNOWN_DISCOUNT } from '@shared/pricing-views';
import { formatMoney } from '@renderer/lib/format';
import type { Preview, PreviewDiscount } from './price-preview';

interface Props {
  preview: Preview;
  /** The server prices with the same function only when it is the embedded sandbox. */
  exact: boolean;
  /** The partner's discount: without it there is no total, rather than a wrong one. */
  discount: PreviewDiscount;
}

/** The order's price as the form stands, line by line of the spec's totals. */
export function PricePreview({ preview, exact, discount }: Props) {
  const p = preview.pricing;
  const rows: [string, string, boolean?][] = discount.known
    ? [
        [`Discounts (partner ${p.discount} and volume)`, p.totalDiscount, true],
        ['of which volume discount', p.totalVolumeDiscount, true],
        ['Handling fees', p.totalFees],
        ['Subtotal', p.subtotalPrice],
        ['Shipping', p.totalShipping],
      ]
    : [
        ['Handling fees', p.totalFees],
        ['Shipping', p.totalShipping],
      ];
  return (
    <section className="card price-preview" aria-labelledby="price-preview-heading">
      <h2 id="price-preview-heading">{exact ? 'Price' : 'Estimated price'}</h2>
      <dl className="price-rows" aria-live="polite">
        {rows.map(([label, amount, minus]) => (
          <div key={label} className="price-row">
            <dt>{label}</dt>
            <dd>{minus && amount !== '0.00' ? `−${formatMoney(amount)}` : formatMoney(amount)}</dd>
          </div>
        ))}
        <div className="price-row price-total">
          <dt>Total</dt>
          <dd data-testid="price-total">
            {discount.known ? formatMoney(p.totalPrice) : discount.reading ? '…' : 'Unknown'}
          </dd>
        </div>
      </dl>
      {!discount.known && (
        <p className="field-hint price-unknown" role="status">
          {discount.reading ? "Reading the partner's discount…" : TOTAL_UNKNOWN_DISCOUNT}
        </p>
      )}
      {!exact && discount.known && (
        <p className="field-hint">
          <Info aria-hidden="true" size={14} /> An estimate: the server you are connected to prices
          the order itself and may differ.
        </p>
      )}
      {preview.unpriced > 0 && (
        <p className="field-hint">
          {preview.unpriced === 1 ? 'One line is' : `${preview.unpriced} lines are`} not counted
          until its product and quantity are valid.
        </p>
      )}
      {discount.known && (
        <p className="field-hint">The subtotal is after the discounts, with the handling fees.</p>
      )}
    </section>
  );
}
