import { format, isValid, parseISO } from 'date-fns';
import type { AppOrder } from '../../../../shared/api';

/** "24 Nov 2026, 14:05": when an order was created, in the queue and the detail. */
export function formatDateTime(iso: string | null): string {
  if (!iso) return '';
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'd MMM yyyy, HH:mm') : iso;
}

export const patientName = (order: AppOrder): string =>
  `${order.customer.firstName} ${order.customer.lastName}`;

export const SHIPPING_LABELS: Record<AppOrder['shippingMethod'], string> = {
  STANDARD: 'Standard',
  EXPRESS: 'Express',
  OVERNIGHT: 'Overnight',
};

export const ORDER_TYPE_LABELS: Record<AppOrder['orderType'], string> = {
  ONE_TIME: 'One time',
  SUBSCRIPTION: 'Subscription',
};

/** The detail's address in the app: the id goes into the path as one segment. */
export const orderHref = (orderId: string): string => `/${encodeURIComponent(orderId)}`;
