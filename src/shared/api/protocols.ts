import { z } from 'zod';
import { Cursor, DaysSupply, Money, OrderType, ShippingMethod, Timestamp } from './common';
import { Customer, CustomerRequest } from './customer';
import { Administration, LineItem, LineItemRequest, lineItemList } from './line-items';

/** POST /protocols and PUT /protocols/{id} body (full replacement). */
export const ProtocolRequest = z.object({
  customer: CustomerRequest,
  daysSupply: DaysSupply,
  lineItems: lineItemList(LineItemRequest),
  shippingMethod: ShippingMethod,
  orderType: OrderType,
});
export type ProtocolRequest = z.infer<typeof ProtocolRequest>;

/**
 * The user's content of a protocol as stored: the shape of the shared ProtocolRequest, read
 * structurally (value rules are checked when a draft is written with createDraft/updateDraft).
 * daysSupply, shippingMethod and orderType may be null because a server copy may have them null
 * (spec: "null when decided on the subscription"); drafts written locally never do.
 */
export const ProtocolDraft = z.object({
  customer: z.object({
    sourceId: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullish(),
    phone: z.string().nullish(),
    address: z.object({
      line1: z.string(),
      line2: z.string().nullish(),
      city: z.string(),
      state: z.string(),
      zipCode: z.string(),
    }),
  }),
  daysSupply: DaysSupply.nullable(),
  lineItems: z.array(
    z.object({
      productId: z.int(),
      quantity: z.int(),
      packDescription: z.string().optional(),
      administration: Administration.nullish(),
    }),
  ),
  shippingMethod: ShippingMethod.nullable(),
  orderType: OrderType.nullable(),
});
export type ProtocolDraft = z.infer<typeof ProtocolDraft>;

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
