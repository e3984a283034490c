import type { ReviewDetailView } from '@shared/work-views';
import { formatMoney } from '@renderer/lib/format';
import { shippingMethodLabel } from '@renderer/lib/order-format';
import { lineQuantity } from '@renderer/components/batch-labels';

const money = (amount: string | null) => (amount === null ? '—' : formatMoney(amount));

/** A reviewed order expanded: its products with their prices, and the rest of its price. */
export function ReviewDetail({
  id,
  who,
  detail,
  exact,
}: {
  id: string;
  who: string;
  detail: ReviewDetailView;
  exact: boolean;
}) {
  const { price } = detail;
  return (
    <div id={id} className="review-detail">
      <table className="table review-lines">
        <caption className="visually-hidden">Products of the order for {who}</caption>
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Quantity</th>
            <th scope="col" className="num">
              {exact ? 'Price' : 'Estimate'}
            </th>
          </tr>
        </thead>
        <tbody>
          {detail.lines.map((line) => (
            <tr key={line.productId}>
              <th scope="row">
                {line.name} <span className="muted code">{line.productId}</span>
              </th>
              <td>{lineQuantity(line)}</td>
              <td className="num">{money(line.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="review-price">
        <div>
          <dt>Supply</dt>
          <dd>
            {detail.daysSupply} days, {shippingMethodLabel(detail.shippingMethod)} shipping
          </dd>
        </div>
        {price ? (
          <>
            <div>
              <dt>Partner discount</dt>
              <dd>{price.discount}, in the prices</dd>
            </div>
            {price.volumeDiscount !== '0.00' && (
              <div>
                <dt>Volume discount</dt>
                <dd className="num">−{formatMoney(price.volumeDiscount)}</dd>
              </div>
            )}
            <div>
              <dt>Handling fees</dt>
              <dd className="num">{formatMoney(price.fees)}</dd>
            </div>
            <div>
              <dt>Shipping</dt>
              <dd className="num">{formatMoney(price.shipping)}</dd>
            </div>
            <div className="review-price-total">
              <dt>{exact ? 'Total' : 'Estimated total'}</dt>
              <dd className="num">{formatMoney(price.total)}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>Price</dt>
            <dd>Not known yet: see the warnings.</dd>
          </div>
        )}
      </dl>
    </div>
  );
}
