import {
  type OrderV101,
  orderTypeToV101,
  statusToV101,
  type LineItem,
  type Order,
} from '../shared/api';

/** The 1.0.2 order: packDescription is absent on external items. */
export function orderV102(order: Order): Order {
  if (!order.lineItems.some(hasExternalPackDescription)) return order;
  return {
    ...order,
    lineItems: order.lineItems.map((li): LineItem => {
      if (!li.external) return li;
      const { packDescription: _omitted, ...rest } = li;
      return rest;
    }),
  };
}

const hasExternalPackDescription = (li: LineItem): boolean =>
  li.external && li.packDescription !== undefined;

/**
 * The 1.0.2 answer for a new order as JSON text, from the text it was stored as: that text itself
 * unless an external line carries a packDescription (one the client sent), which 1.0.2 leaves out.
 */
export const orderV102Text = (order: Order, json: string): string =>
  order.lineItems.some(hasExternalPackDescription) ? JSON.stringify(orderV102(order)) : json;

/**
 * The 1.0.1 order of list and get: 1.0.1 statuses, ONE-TIME, zip, reduced line items and
 * tracking. 1.0.1 requires packDescription on every line: an external line without one shows the
 * catalog's (`catalogPackDescription`).
 */
export function orderV101(
  order: Order,
  catalogPackDescription: (productId: number) => string | undefined,
): OrderV101 {
  const { zipCode, ...address } = order.customer.address;
  return {
    id: order.id,
    discount: order.discount,
    daysSupply: order.daysSupply,
    orderType: orderTypeToV101(order.orderType),
    shippingMethod: order.shippingMethod,
    status: statusToV101(order.status),
    fulfillmentInfo: order.fulfillmentInfo
      ? {
          carrier: order.fulfillmentInfo.carrier,
          trackingNumber: order.fulfillmentInfo.trackingNumber,
        }
      : null,
    lineItems: order.lineItems.map((li) => ({
      productId: li.productId,
      quantity: li.quantity,
      packDescription: li.packDescription ?? catalogPackDescription(li.productId) ?? '',
      price: li.price,
      discountedPrice: li.discountedPrice,
      administration: li.administration,
    })),
    customer: { ...order.customer, address: { ...address, zip: zipCode } },
    subtotalPrice: order.subtotalPrice,
    totalDiscount: order.totalDiscount,
    totalFees: order.totalFees,
    totalShipping: order.totalShipping,
    totalVolumeDiscount: order.totalVolumeDiscount,
    totalPrice: order.totalPrice,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}
