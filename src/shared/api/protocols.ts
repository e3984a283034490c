import { z } from 'zod';
import { Cursor, DaysSupply, Money, OrderType, ShippingMethod, Timestamp } from './common';
import { Customer, CustomerRequest } from './customer';
import { LineItem, LineItemRequest, lineItemList } from './line-items';

/** POST /protocols and PUT /protocols/{id} body (full replacement). */
export const ProtocolRequest = z.object({
  customer: CustomerRequest,
  daysSupply: DaysSupply,
  lineItems: lineItemList(LineItemRequest),
  shippingMethod: ShippingMethod,
  orderType: OrderType,
});
export type ProtocolRequest = z.infer<typeof ProtocolRequest>;

export const Protocol = z.object({
  id: z.string(),
  customer: Customer,
  daysSupply: DaysSupply.nullable(),
  orderType: OrderType.nullable(),
  shippingMethod: ShippingMethod.nullable(),
  discount: z.string().nullable(),
  lineItems: z.array(LineItem),
  subtotalPrice: Money.nullable(),
  totalDiscount: Money.nullable(),
  totalFees: Money.nullable(),
  totalVolumeDiscount: Money.nullable(),
  totalShipping: Money.nullable(),
  totalPrice: Money.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Protocol = z.infer<typeof Protocol>;

export const ProtocolList = z.object({ protocols: z.array(Protocol), cursor: Cursor });
export type ProtocolList = z.infer<typeof ProtocolList>;

export const ProtocolDeleted = z.object({ protocolId: z.string(), message: z.string() });
export type ProtocolDeleted = z.infer<typeof ProtocolDeleted>;
