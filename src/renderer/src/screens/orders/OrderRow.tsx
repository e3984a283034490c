import { memo } from 'react';
import { Link } from 'wouter';
import type { AppOrder } from '@shared/api';
import { formatMoney } from '@renderer/lib/format';
import { orderStatusLabel } from '@renderer/lib/order-filters';
import { formatDateTime } from '@renderer/lib/dates';
import { orderHref, patientName } from '@renderer/lib/order-format';
import { OrderStatusBadge } from '@renderer/components/OrderStatusBadge';

/** Compact: a day's queue at 1280×800 shows a dozen orders (styles/orders.css). */
export const ROW_HEIGHT = 40;

/**
 * One order of the queue: its checkbox for a bulk action, then the link to its detail (patient
 * and total, order id and date, its status). Space on the link toggles the checkbox (OrderQueue).
 */
export const OrderRow = memo(function OrderRow({
  order,
  selected,
  checked,
  onToggle,
  duplicateOf,
}: {
  order: AppOrder;
  /** The order whose detail is open. */
  selected: boolean;
  /** Chosen for a bulk action. */
  checked: boolean;
  onToggle: (orderId: string, range: boolean) => void;
  /** The order this one may repeat (found after a batch), if any. */
  duplicateOf?: string | undefined;
}) {
  const created = formatDateTime(order.createdAt);
  const total = formatMoney(order.totalPrice);
  const status = orderStatusLabel(order.status);
  // A repeat once cancelled (by a person, or by this desk when another desk's order came first).
  const repeatCancelled = duplicateOf !== undefined && order.status === 'CANCELLED';
  const duplicate = duplicateOf
    ? repeatCancelled
      ? `, a repeat of order ${duplicateOf}, cancelled`
      : `, possible duplicate of order ${duplicateOf}`
    : '';
  return (
    <>
      <input
        type="checkbox"
        className="order-check"
        // Reached from the keyboard by Space on the row's link: one stop per row in the Tab order.
        tabIndex={-1}
        checked={checked}
        aria-label={`Select order ${order.id} of ${patientName(order)}`}
        onChange={(event) =>
          onToggle(order.id, (event.nativeEvent as globalThis.MouseEvent).shiftKey)
        }
      />
      <Link
        href={orderHref(order.id)}
        className="row-link"
        aria-current={selected ? 'page' : undefined}
        // One name read as a sentence; the row's parts below are laid out for the eye.
        aria-label={`${patientName(order)}, order ${order.id}, created ${created}, total ${total}, ${status}${duplicate}${checked ? ', selected' : ''}`}
      >
        <span className="row-main">
          <span className="row-title">{patientName(order)}</span>
          <span className="row-meta muted">
            <span className="order-id">{order.id}</span> · {created}
          </span>
        </span>
        <span className="row-side">
          <span className="row-figure">{total}</span>
          {duplicateOf &&
            (repeatCancelled ? (
              <span className="badge" title={`Repeated order ${duplicateOf}, which is kept`}>
                Repeat, cancelled
              </span>
            ) : (
              <span className="badge badge-warn" title={`May repeat order ${duplicateOf}`}>
                Possible duplicate
              </span>
            ))}
          <OrderStatusBadge status={order.status} />
        </span>
      </Link>
    </>
  );
});

/** A row whose page is still being read. */
