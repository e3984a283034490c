import type { AppOrder } from '@shared/api';
import { ORDER_TYPE_WORDS, SHIPPING_METHOD_WORDS } from '@shared/order-words';
import { valueLabel } from '@renderer/lib/format';
import { orderStatusLabel } from '@renderer/lib/order-filters';

/**
 * Why the order offers no Cancel, or null when it may be cancelled: the spec allows a cancel only
 * while the order is NEW ("cancellation is allowed only before processing").
 */
export function cancelBlockedReason(order: Pick<AppOrder, 'status'>): string | null {
  if (order.status === 'NEW') return null;
  if (order.status === 'CANCELLED') return 'This order is already cancelled.';
  return `Orders can be cancelled only while New, before processing starts; this one is ${orderStatusLabel(order.status)}.`;
}

export const patientName = (order: AppOrder): string =>
  `${order.customer.firstName} ${order.customer.lastName}`;

/** An order's shipping method and type in words (a value the app does not know, as it came). */
export const shippingMethodLabel = (method: string): string =>
  valueLabel(SHIPPING_METHOD_WORDS, method, 'shipping method');
export const orderTypeLabel = (type: string): string =>
  valueLabel(ORDER_TYPE_WORDS, type, 'order type');

/** The detail's address in the app: the id goes into the path as one segment. */
export const orderHref = (orderId: string): string => `/${encodeURIComponent(orderId)}`;

/** An order's dosing schedule, from anywhere (outside the order queue's nested routes). */
/** The selected orders' schedules, one per printed page (from inside the queue's nested routes). */
export const selectedSchedulesHref = '~/orders/schedules';

export const orderScheduleHref = (orderId: string): string =>
  `~/orders/${encodeURIComponent(orderId)}/schedule`;

/** Public tracking pages of the carriers the partner ships with, by the carrier's name. */
const CARRIER_PAGES: Record<string, (n: string) => string> = {
  usps: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  ups: (n) => `https://www.ups.com/track?tracknum=${n}`,
  fedex: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  dhl: (n) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${n}`,
};

/**
 * The tracking page: the server's trackingUrl, or (order reads in the 1.0.1 shape carry only the
 * carrier and the number) the carrier's own public page for that number; null when neither is known.
 */
export function trackingPage(info: AppOrder['fulfillmentInfo']): string | null {
  if (!info) return null;
  if (info.trackingUrl && /^https?:\/\//i.test(info.trackingUrl)) return info.trackingUrl;
  const page = info.carrier ? CARRIER_PAGES[info.carrier.trim().toLowerCase()] : undefined;
  return page && info.trackingNumber ? page(encodeURIComponent(info.trackingNumber)) : null;
}

/** The id in #/orders/<id>, decoded; null when the segment is not a usable order id. */
export function orderIdOf(raw: string): string | null {
  try {
    const id = decodeURIComponent(raw);
    return id.length >= 1 && id.length <= 100 ? id : null;
  } catch {
    return null;
  }
}
