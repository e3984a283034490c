import {
  isKnownOrderStatus,
  statusToV101,
  type AppLineItem,
  type AppOrder,
  type OrderStatus,
  type OrderStatusRead,
} from '@shared/api';

/** Statuses after which an order is no longer polled (SHIPPED is final in the 1.0.1 set). */
export const POLL_FINAL_STATUSES: readonly OrderStatus[] = ['CANCELLED', 'SHIPPED', 'DELIVERED'];

/** A status the app does not know is never final: the order is followed until it reaches one. */
export const isPollFinal = (status: OrderStatusRead): boolean =>
  isKnownOrderStatus(status) && POLL_FINAL_STATUSES.includes(status);

/** The 1.0.1 class of a status: a known one's 1.0.1 status; an unknown one is its own class. */
const statusClass = (status: OrderStatusRead): string =>
  isKnownOrderStatus(status) ? statusToV101(status) : status;

/**
 * The order to store when `incoming` is read and `existing` was stored. An older read changes
 * nothing; an exact (1.0.2) status is taken; a coarse (1.0.1) status of the stored one's class
 * keeps the stored status ('coarse' once updatedAt moved); any other coarse status is taken. What
 * a 1.0.1 body lacks (names, totals, most of fulfillmentInfo) is kept from the stored order.
 * The rules with examples: docs/decisions.md, "Order status precedence".
 */
export function mergeOrder(existing: AppOrder | null, incoming: AppOrder): AppOrder {
  if (!existing) return incoming;
  const existingAt = Date.parse(existing.updatedAt);
  const incomingAt = Date.parse(incoming.updatedAt);
  if (incomingAt < existingAt) return existing;

  let { status, statusPrecision } = incoming;
  if (
    incoming.statusPrecision === 'coarse' &&
    statusClass(existing.status) === statusClass(incoming.status)
  ) {
    status = existing.status;
    statusPrecision =
      existing.statusPrecision === 'exact' && incomingAt === existingAt ? 'exact' : 'coarse';
  }
  return {
    ...incoming,
    status,
    statusPrecision,
    lineItems: incoming.lineItems.map((li) => enrichLineItem(li, existing.lineItems)),
    fulfillmentInfo: mergeFulfillment(existing.fulfillmentInfo, incoming.fulfillmentInfo),
  };
}

function enrichLineItem(li: AppLineItem, known: readonly AppLineItem[]): AppLineItem {
  const k = known.find((x) => x.productId === li.productId);
  if (!k) return li;
  return {
    ...li,
    name: li.name ?? k.name,
    totalPrice: li.totalPrice ?? k.totalPrice,
    external: li.external ?? k.external,
    imageUrl: li.imageUrl ?? k.imageUrl,
    packDescription: li.packDescription ?? k.packDescription,
  };
}

function mergeFulfillment(
  existing: AppOrder['fulfillmentInfo'],
  incoming: AppOrder['fulfillmentInfo'],
): AppOrder['fulfillmentInfo'] {
  if (!existing) return incoming;
  if (!incoming)
    return existing.trackingNumber === null && existing.carrier === null ? null : existing;
  const reduced =
    incoming.trackingStatus === null &&
    incoming.trackingUrl === null &&
    incoming.checkpoints === null;
  const same =
    incoming.carrier === existing.carrier && incoming.trackingNumber === existing.trackingNumber;
  return reduced && same ? existing : incoming;
}
