import { isKnownOrderStatus, type OrderStatus } from '@shared/api';
import { orderStatusLabel } from '@renderer/lib/order-filters';

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

/**
 * An order's status as a coloured badge (the words carry the meaning, the colour helps). A
 * status the app does not know is shown as it came, "On hold (unknown status)", without a colour
 * that would claim what it means.
 */
export function OrderStatusBadge({ status }: { status: string }) {
  const tone = isKnownOrderStatus(status) ? TONE[status] : 'unknown';
  return (
    <span className={`badge order-badge order-badge-${tone}`}>{orderStatusLabel(status)}</span>
  );
}
