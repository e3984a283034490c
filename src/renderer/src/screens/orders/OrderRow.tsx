import { memo } from 'react';
import { Link } from 'wouter';
import type { AppOrder } from '@shared/api';
import { formatMoney } from '@renderer/lib/format';
import { orderStatusLabel } from './order-filters';
import { formatDateTime } from '@renderer/lib/dates';
import { orderHref, patientName } from './order-format';
import { OrderStatusBadge } from './OrderStatusBadge';

export const ROW_HEIGHT = 64;

/** One order of the queue: patient and total, then order id and date, and its status. */
export const OrderRow = memo(function OrderRow({
  order,
  selected,
  duplicateOf,
}: {
  order: AppOrder;
  selected: boolean;
  /** The order this one may repeat (found after a batch), if any. */
  duplicateOf?: string | undefined;
}) {
  const created = formatDateTime(order.createdAt);
  const total = formatMoney(order.totalPrice);
  const status = orderStatusLabel(order.status);
  const duplicate = duplicateOf ? `, possible duplicate of order ${duplicateOf}` : '';
  return (
    <Link
      href={orderHref(order.id)}
      className="row-link"
      aria-current={selected ? 'page' : undefined}
      // One name read as a sentence; the row's parts below are laid out for the eye.
      aria-label={`${patientName(order)}, order ${order.id}, created ${created}, total ${total}, ${status}${duplicate}`}
    >
      <span className="row-main">
        <span className="row-title">{patientName(order)}</span>
        <span className="row-meta muted">
          <span className="order-id">{order.id}</span> · {created}
        </span>
      </span>
      <span className="row-side">
        <span className="row-figure">{total}</span>
        {duplicateOf && (
          <span className="badge badge-warn" title={`May repeat order ${duplicateOf}`}>
            Possible duplicate
          </span>
        )}
        <OrderStatusBadge status={order.status} />
      </span>
    </Link>
  );
});

/** A row whose page is still being read. */
