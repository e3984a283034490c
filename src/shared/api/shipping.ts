import { z } from 'zod';
import { Money, ShippingMethod } from './common';

/** The spec leaves the shipping method record open; docs/decisions.md says why it is this. */
export const ShippingMethodInfo = z.object({
  id: ShippingMethod,
  name: z.string(),
  description: z.string(),
  price: Money,
  minDays: z.int(),
  maxDays: z.int(),
});
export type ShippingMethodInfo = z.infer<typeof ShippingMethodInfo>;

export const ShippingMethodList = z.object({ shippingMethods: z.array(ShippingMethodInfo) });
export type ShippingMethodList = z.infer<typeof ShippingMethodList>;
