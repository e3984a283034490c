import type { OrderType, ShippingMethod } from './api';

/**
 * A shipping method and an order type in words, as every screen and message for people says them
 * (the API's codes stay in requests, filters and the CSV exports' cells).
 */
export const SHIPPING_METHOD_WORDS: Record<ShippingMethod, string> = {
  STANDARD: 'Standard',
  EXPRESS: 'Express',
  OVERNIGHT: 'Overnight',
};

export const ORDER_TYPE_WORDS: Record<OrderType, string> = {
  ONE_TIME: 'One time',
  SUBSCRIPTION: 'Subscription',
};
