import {
  type OrderV101,
  orderTypeToV101,
  statusToV101,
  type LineItem,
  type Order,
} from '../shared/api';

/** The 1.0.2 order: packDescription is absent on external items. */
export function orderV102(order: Order): Order {
  return {
    ...order,
    lineItems: order.lineItems.map((li): LineItem => {
      if (!li.external) return li;
      const { packDescription: _omitted, ...rest } = li;
      return rest;
    }),
  };
}

/** The 1.0.1 order of list and get: 1.0.1 statuses, ONE-TIME, zip, reduced line items and tracking. */
export function orderV101(order: Order): OrderV101 {
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
      packDescription: li.packDescription ?? '',
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
