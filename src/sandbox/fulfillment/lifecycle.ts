import {
  ORDER_STATUSES,
  type Checkpoint,
  type FulfillmentInfo,
  type Order,
  type OrderStatus,
  type ShippingMethod,
} from '@shared/api';
import { isoAt } from '../clock';

/** The order of fulfillment. CANCELLED is reached only by the cancel operation, from NEW. */
export const FULFILLMENT_CHAIN: readonly OrderStatus[] = ORDER_STATUSES.filter(
  (s) => s !== 'CANCELLED',
);

export const isFinal = (status: OrderStatus): boolean =>
  status === 'DELIVERED' || status === 'CANCELLED';

export function nextStatus(status: OrderStatus): OrderStatus | null {
  const i = FULFILLMENT_CHAIN.indexOf(status);
  return i < 0 || i === FULFILLMENT_CHAIN.length - 1 ? null : FULFILLMENT_CHAIN[i + 1]!;
}

/** Whether `to` lies ahead of `from` on the fulfillment chain. */
export const isAhead = (from: OrderStatus, to: OrderStatus): boolean =>
  FULFILLMENT_CHAIN.indexOf(to) > FULFILLMENT_CHAIN.indexOf(from) &&
  FULFILLMENT_CHAIN.indexOf(from) >= 0;

const CARRIERS: Record<
  ShippingMethod,
  { carrier: string; url: (n: string) => string; prefix: string }
> = {
  STANDARD: {
    carrier: 'USPS',
    prefix: '9400',
    url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  },
  EXPRESS: { carrier: 'UPS', prefix: '1Z', url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  OVERNIGHT: {
    carrier: 'FedEx',
    prefix: '7749',
    url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  },
};

const FULFILLMENT_CENTER = 'Reno, NV, US';

/** A tracking number derived from the order id, so that it is stable and looks like the carrier's. */
function trackingNumber(order: Order): string {
  const { prefix } = CARRIERS[order.shippingMethod];
  let digits = '';
  for (const ch of order.id) digits += (ch.charCodeAt(0) % 10).toString();
  return `${prefix}${digits.slice(-18).padStart(18, '0')}`;
}

const checkpoint = (atMs: number, location: string, message: string, tag: string): Checkpoint => ({
  checkpointTime: isoAt(atMs),
  location,
  message,
  tag,
});

function shippedInfo(order: Order, nowMs: number): FulfillmentInfo {
  const number = trackingNumber(order);
  const carrier = CARRIERS[order.shippingMethod];
  return {
    carrier: carrier.carrier,
    trackingNumber: number,
    trackingStatus: 'InTransit',
    trackingUrl: carrier.url(number),
    checkpoints: [
      checkpoint(
        nowMs,
        FULFILLMENT_CENTER,
        'Shipping label created, package handed to carrier',
        'InfoReceived',
      ),
      checkpoint(nowMs, FULFILLMENT_CENTER, 'Picked up by carrier', 'InTransit'),
    ],
  };
}

function deliveredInfo(order: Order, nowMs: number): FulfillmentInfo {
  const info = order.fulfillmentInfo ?? shippedInfo(order, nowMs);
  const { city, state } = order.customer.address;
  const destination = `${city}, ${state}, US`;
  return {
    ...info,
    trackingStatus: 'Delivered',
    checkpoints: [
      ...(info.checkpoints ?? []),
      checkpoint(nowMs, destination, 'Out for delivery', 'OutForDelivery'),
      checkpoint(nowMs, destination, 'Delivered', 'Delivered'),
    ],
  };
}

/** The order after one step to `to`: status, update time and, from SHIPPED on, tracking. */
export function applyStatus(order: Order, to: OrderStatus, nowMs: number): Order {
  const fulfillmentInfo =
    to === 'SHIPPED'
      ? shippedInfo(order, nowMs)
      : to === 'DELIVERED'
        ? deliveredInfo(order, nowMs)
        : order.fulfillmentInfo;
  // updatedAt must move forward even when two steps fall in the same millisecond.
  const updatedMs = Math.max(nowMs, Date.parse(order.updatedAt) + 1);
  return { ...order, status: to, fulfillmentInfo, updatedAt: isoAt(updatedMs) };
}
