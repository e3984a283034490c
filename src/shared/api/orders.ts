import { z } from 'zod';
import {
  Cursor,
  DaysSupply,
  Money,
  OrderStatus,
  OrderStatusV101,
  OrderType,
  OrderTypeV101,
  ShippingMethod,
  Timestamp,
} from './common';
import { Customer, CustomerRequest, CustomerRequestV101, CustomerV101 } from './customer';
import {
  LineItem,
  LineItemV101,
  OrderLineItemRequest,
  OrderLineItemRequestV101,
  lineItemList,
} from './line-items';

/** POST /orders body, 1.0.2. */
export const CreateOrderRequest = z.object({
  customer: CustomerRequest,
  daysSupply: DaysSupply,
  lineItems: lineItemList(OrderLineItemRequest),
  shippingMethod: ShippingMethod,
  orderType: OrderType,
});
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>;

/** POST /orders body, 1.0.1: `zip`, packDescription required, ONE-TIME (ONE_TIME accepted too). */
export const CreateOrderRequestV101 = CreateOrderRequest.extend({
  customer: CustomerRequestV101,
  lineItems: lineItemList(OrderLineItemRequestV101),
  orderType: z.enum(['ONE-TIME', 'ONE_TIME', 'SUBSCRIPTION']),
});
export type CreateOrderRequestV101 = z.infer<typeof CreateOrderRequestV101>;

export const Checkpoint = z.object({
  checkpointTime: Timestamp.nullable(),
  location: z.string().nullable(),
  message: z.string().nullable(),
  tag: z.string().nullable(),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

export const FulfillmentInfo = z.object({
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingStatus: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  checkpoints: z.array(Checkpoint).nullable(),
});
export type FulfillmentInfo = z.infer<typeof FulfillmentInfo>;

/** 1.0.1 fulfillmentInfo: only carrier and trackingNumber. */
export const FulfillmentInfoV101 = z.object({
  carrier: z.string().nullish(),
  trackingNumber: z.string().nullish(),
});
export type FulfillmentInfoV101 = z.infer<typeof FulfillmentInfoV101>;

const orderTotals = {
  subtotalPrice: Money,
  totalDiscount: Money,
  totalFees: Money,
  totalShipping: Money,
  totalVolumeDiscount: Money,
  totalPrice: Money,
};

/** Order, 1.0.2 shape (create order response, cancel response). */
export const Order = z.object({
  id: z.string(),
  discount: z.string(),
  daysSupply: z.int(),
  orderType: OrderType,
  shippingMethod: ShippingMethod,
  status: OrderStatus,
  fulfillmentInfo: FulfillmentInfo.nullable(),
  lineItems: z.array(LineItem),
  customer: Customer,
  ...orderTotals,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Order = z.infer<typeof Order>;

/** Order, 1.0.1 shape (list orders, get order, 1.0.1 create response). */
export const OrderV101 = z.object({
  id: z.string(),
  discount: z.string(),
  daysSupply: z.int(),
  orderType: OrderTypeV101,
  shippingMethod: ShippingMethod,
  status: OrderStatusV101,
  fulfillmentInfo: FulfillmentInfoV101.nullish(),
  lineItems: z.array(LineItemV101),
  customer: CustomerV101,
  ...orderTotals,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type OrderV101 = z.infer<typeof OrderV101>;

export const OrderList = z.object({ orders: z.array(OrderV101), cursor: Cursor });
export type OrderList = z.infer<typeof OrderList>;
