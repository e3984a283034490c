import { z } from 'zod';
import { Money } from './common';
import type { OrderStatus, OrderStatusV101, OrderType, OrderTypeV101 } from './common';
import { Administration } from './line-items';
import { OrderRead, type OrderStatusRead, type OrderV101Read, type UnknownValue } from './read';

/**
 * The one order model the app works with, whichever version the server answered in.
 * Fields that the 1.0.1 shapes do not carry are null rather than guessed.
 */
export const AppLineItem = z.object({
  productId: z.int(),
  quantity: z.int(),
  packDescription: z.string().nullable(),
  price: Money,
  discountedPrice: Money,
  administration: Administration.nullable(),
  name: z.string().nullable(),
  totalPrice: Money.nullable(),
  external: z.boolean().nullable(),
  imageUrl: z.string().nullable(),
});
export type AppLineItem = z.infer<typeof AppLineItem>;

/**
 * The 1.0.2 order as read (its enums open: a status the app does not know is kept as it came),
 * with a status precision and line items that may lack what 1.0.1 omits.
 */
export const AppOrder = OrderRead.extend({
  /** 'exact' from 1.0.2 reads and webhooks; 'coarse' from 1.0.1 reads, whose PROCESSING covers DISPENSING and FILLED too. */
  statusPrecision: z.enum(['exact', 'coarse']),
  lineItems: z.array(AppLineItem),
});
export type AppOrder = z.infer<typeof AppOrder>;

/** 1.0.1 status -> 1.0.2 status. CREATED is NEW; the others exist in both sets (or are unknown). */
export function statusFromV101(status: OrderStatusV101): OrderStatus;
export function statusFromV101(status: OrderStatusV101 | UnknownValue): OrderStatusRead;
export function statusFromV101(status: OrderStatusV101 | UnknownValue): OrderStatusRead {
  return status === 'CREATED' ? 'NEW' : status;
}

/**
 * 1.0.2 status -> the 1.0.1 status the service reports for it (docs/decisions.md):
 * DISPENSING and FILLED are still PROCESSING, DELIVERED is still SHIPPED.
 */
export function statusToV101(status: OrderStatus): OrderStatusV101 {
  switch (status) {
    case 'NEW':
      return 'CREATED';
    case 'DISPENSING':
    case 'FILLED':
      return 'PROCESSING';
    case 'DELIVERED':
      return 'SHIPPED';
    default:
      return status;
  }
}

export function orderTypeFromV101(t: OrderTypeV101 | OrderType): OrderType;
export function orderTypeFromV101(
  t: OrderTypeV101 | OrderType | UnknownValue,
): OrderType | UnknownValue;
export function orderTypeFromV101(
  t: OrderTypeV101 | OrderType | UnknownValue,
): OrderType | UnknownValue {
  return t === 'ONE-TIME' ? 'ONE_TIME' : t;
}

export const orderTypeToV101 = (t: OrderType): OrderTypeV101 => (t === 'ONE_TIME' ? 'ONE-TIME' : t);

export function normalizeOrder(order: OrderRead): AppOrder {
  return {
    ...order,
    statusPrecision: 'exact',
    lineItems: order.lineItems.map((li) => ({
      productId: li.productId,
      quantity: li.quantity,
      packDescription: li.packDescription ?? null,
      price: li.price,
      discountedPrice: li.discountedPrice,
      administration: li.administration,
      name: li.name,
      totalPrice: li.totalPrice,
      external: li.external,
      imageUrl: li.imageUrl,
    })),
  };
}

export function normalizeOrderV101(order: OrderV101Read): AppOrder {
  const { zip, ...address } = order.customer.address;
  const info = order.fulfillmentInfo;
  return {
    ...order,
    orderType: orderTypeFromV101(order.orderType),
    status: statusFromV101(order.status),
    statusPrecision: 'coarse',
    fulfillmentInfo:
      info && (info.carrier != null || info.trackingNumber != null)
        ? {
            carrier: info.carrier ?? null,
            trackingNumber: info.trackingNumber ?? null,
            trackingStatus: null,
            trackingUrl: null,
            checkpoints: null,
          }
        : null,
    customer: {
      ...order.customer,
      email: order.customer.email ?? null,
      phone: order.customer.phone ?? null,
      address: { ...address, line2: address.line2 ?? null, zipCode: zip },
    },
    lineItems: order.lineItems.map((li) => ({
      ...li,
      name: null,
      totalPrice: null,
      external: null,
      imageUrl: null,
    })),
  };
}
