import type { AppLineItem, AppOrder } from '@shared/api';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The order screen's reads, each kept up to date live. */

/** One order as the mirror has it. */
export function useOrder(orderId: string) {
  const order = useLiveQuery((read) => read('orders.get', { orderId }), [orderId]);
  return order;
}

/** The protocol the order was made from on this desk, if it was. */
export function useMadeFrom(orderId: string) {
  const made = useLiveQuery((read) => read('orders.protocol', { orderId }), [orderId]);
  return made;
}

/** The statuses this app saw the order take. */
export function useOrderTimeline(order: AppOrder) {
  // A failed re-read keeps the timeline already shown.
  const timeline = useLiveQuery(
    (read) => read('orders.timeline', { orderId: order.id }),
    [order.id],
  );
  return timeline;
}

/** The catalog's copy of a line's product, read when the order lacks what the line needs. */
export function useCatalogProduct(item: AppLineItem) {
  const missing = item.name === null || item.totalPrice === null || item.external === null;
  const product = useLiveQuery(
    (read) =>
      missing
        ? read('catalog.product', { id: item.productId })
        : Promise.resolve({ ok: true as const, value: null }),
    [missing, item.productId],
  );
  return product.data ?? null;
}
