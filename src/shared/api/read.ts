import { z } from 'zod';
import {
  ORDER_STATUSES,
  ORDER_STATUSES_V101,
  ORDER_TYPES,
  PRODUCT_STATUSES,
  SHIPPING_METHODS,
  type OrderStatus,
  type ProductStatus,
} from './common';
import { Order, OrderV101 } from './orders';
import { PRODUCT_FORMS, Product, SERVING_TYPES, SupplementFactsPanel } from './products';
import { Protocol } from './protocols';

/**
 * How the app reads a server's answers. The spec's shapes (orders.ts, protocols.ts, products.ts)
 * are what the sandbox sends and its OpenAPI document states; a real server may add values to
 * an enum before the app knows them (an order ON_HOLD, a new product form). Here every enum a
 * server sends is open: a known value, or any other value kept exactly as it came (typed as an
 * UnknownValue, so that code must say what it does with one). Unknown fields are dropped, as
 * zod objects do.
 */

/** The longest unknown enum value kept; anything longer is not a value but a broken answer. */
export const UNKNOWN_VALUE_MAX = 100;

/** A value of an enum the app does not know (yet), as the server sent it. */
export const UnknownValue = z.string().min(1).max(UNKNOWN_VALUE_MAX).brand<'UnknownValue'>();
export type UnknownValue = z.infer<typeof UnknownValue>;

/** One of `values`, or any other non-empty value kept as it came. */
export const openEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.union([z.enum(values), UnknownValue]);

/** Whether `value` is one of `values` (then its type says so). */
export const isKnown = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

export const OrderStatusRead = openEnum(ORDER_STATUSES);
export type OrderStatusRead = z.infer<typeof OrderStatusRead>;
export const isKnownOrderStatus = (status: string): status is OrderStatus =>
  isKnown(ORDER_STATUSES, status);

export const OrderTypeRead = openEnum(ORDER_TYPES);
export const OrderTypeV101Read = openEnum(['ONE-TIME', 'SUBSCRIPTION']);
export const ShippingMethodRead = openEnum(SHIPPING_METHODS);

export const ProductStatusRead = openEnum(PRODUCT_STATUSES);
export type ProductStatusRead = z.infer<typeof ProductStatusRead>;
export const isKnownProductStatus = (status: string): status is ProductStatus =>
  isKnown(PRODUCT_STATUSES, status);

/** A 1.0.2 order as read (create order, cancel). */
export const OrderRead = Order.extend({
  orderType: OrderTypeRead,
  shippingMethod: ShippingMethodRead,
  status: OrderStatusRead,
});
export type OrderRead = z.infer<typeof OrderRead>;

/** A 1.0.1 order as read (list orders, get order, a 1.0.1 create answer). */
export const OrderV101Read = OrderV101.extend({
  orderType: OrderTypeV101Read,
  shippingMethod: ShippingMethodRead,
  status: openEnum(ORDER_STATUSES_V101),
});
export type OrderV101Read = z.infer<typeof OrderV101Read>;

/** A protocol as read: its order type and shipping method may be values the app does not know. */
export const ProtocolRead = Protocol.extend({
  orderType: OrderTypeRead.nullable(),
  shippingMethod: ShippingMethodRead.nullable(),
});
export type ProtocolRead = z.infer<typeof ProtocolRead>;

/** A catalog product as read and mirrored: form, status and serving type open. */
export const ProductRead = Product.extend({
  form: openEnum(PRODUCT_FORMS),
  status: ProductStatusRead,
  SupplementFactsPanel: SupplementFactsPanel.extend({ type: openEnum(SERVING_TYPES) }),
});
export type ProductRead = z.infer<typeof ProductRead>;
