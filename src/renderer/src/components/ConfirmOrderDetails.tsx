import { AlertTriangle } from 'lucide-react';
import type { OrderReviewView } from '@shared/work-views';
import { formatMoney } from '@renderer/lib/format';
import { orderTypeLabel, shippingMethodLabel } from '@renderer/lib/order-format';
import { lineQuantity } from '@renderer/components/batch-labels';

interface Props {
  order: OrderReviewView['order'];
  total: string | null;
  exact: boolean;
  /** Worth a look before sending (a discontinued or backordered product). */
  warnings: readonly string[];
}

/** One order in its confirmation: who it is for, what it holds, how it ships, what it costs. */
export function ConfirmOrderDetails({ order, total, exact, warnings }: Props) {
  return (
    <>
      <dl className="facts-list confirm-order">
        <div>
          <dt>Patient</dt>
          <dd>
            {order.customerName}
            <br />
            <span className="muted code">{order.sourceId}</span>
          </dd>
        </div>
        <div>
          <dt>Supply and shipping</dt>
          <dd>
            {order.daysSupply} days, {shippingMethodLabel(order.shippingMethod)} shipping,{' '}
            {orderTypeLabel(order.orderType).toLowerCase()}
          </dd>
        </div>
        <div className="facts-list-wide">
          <dt>Products</dt>
          <dd>
            <ul className="confirm-order-lines">
              {order.lines.map((line) => (
                <li key={line.productId}>
                  {line.name}: {lineQuantity(line)}
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>{exact ? 'Total' : 'Estimated total'}</dt>
          <dd data-testid="confirm-total">{total === null ? 'Unknown' : formatMoney(total)}</dd>
        </div>
      </dl>
      {warnings.map((w) => (
        <p key={w} className="review-warning">
          <AlertTriangle aria-hidden="true" size={14} />
          <span className="visually-hidden">Warning: </span>
          {w}
        </p>
      ))}
    </>
  );
}
