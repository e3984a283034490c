import type { OrderStatus } from '../../../../shared/api';
import { ORDER_STATUS_LABELS } from './order-filters';

const TONE: Record<OrderStatus, string> = {
  NEW: 'new',
  PROCESSING: 'progress',
  DISPENSING: 'progress',
  FILLED: 'progress',
  FULFILLED: 'progress',
  AWAITING_SHIPMENT: 'progress',
  SHIPPED: 'shipped',
  DELIVERED: 'shipped',
  CANCELLED: 'cancelled',
};

/** An order's status as a coloured badge (the words carry the meaning, the colour helps). */
export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`badge order-badge order-badge-${TONE[status]}`}>
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}
