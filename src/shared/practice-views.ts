import { z } from 'zod';
import { OrderStatus, ProductStatus, ShippingMethod } from './api';

/** How the practice server answers: as it should, 3 s late, or 503 to every request. */
export const PracticeServer = z.enum(['normal', 'slow', 'failing']);
export type PracticeServer = z.infer<typeof PracticeServer>;

/** Practice mode as the header, the sidebar and the Practice screen show it. */
export const PracticeState = z.object({
  /** The active connection is the built-in sandbox: practice mode may be switched on. */
  available: z.boolean(),
  /** Practice mode is on (never while another connection is active). */
  enabled: z.boolean(),
  /** The built-in sandbox is simulating being offline. */
  offline: z.boolean(),
  /** How the built-in sandbox answers while it is online. */
  server: PracticeServer,
});
export type PracticeState = z.infer<typeof PracticeState>;

/** The statuses an order can be moved to in practice: forward on the fulfillment chain. */
export const PracticeTargetStatus = OrderStatus.exclude(['NEW', 'CANCELLED']);
export type PracticeTargetStatus = z.infer<typeof PracticeTargetStatus>;
export const PRACTICE_TARGET_STATUSES = PracticeTargetStatus.options;

export const PracticeAdvance = z.strictObject({
  orderId: z.string().trim().min(1, 'required').max(100, 'at most 100 characters'),
  to: PracticeTargetStatus,
});
export type PracticeAdvance = z.infer<typeof PracticeAdvance>;

export const PracticeOffline = z.strictObject({ offline: z.boolean() });

/** A protocol of the server (its server id) to change as another desk would. */
export const PracticeProtocol = z.strictObject({
  protocolId: z.string().trim().min(1, 'required').max(100, 'at most 100 characters'),
});

/** Another desk's change: the protocol's new shipping method on the server. */
export const PracticeProtocolChange = z.object({
  protocolId: z.string(),
  shippingMethod: ShippingMethod,
});
export type PracticeProtocolChange = z.infer<typeof PracticeProtocolChange>;

/** The statuses a product can be given in practice (Draft is the partner's own, never shown). */
export const PracticeProductStatus = ProductStatus.exclude(['DRAFT']);
export type PracticeProductStatus = z.infer<typeof PracticeProductStatus>;
export const PRACTICE_PRODUCT_STATUSES = PracticeProductStatus.options;

export const PracticeProduct = z.strictObject({
  productId: z.int('a product id').positive('a product id'),
  status: PracticeProductStatus,
});

/** The product as the partner now has it. */
export const PracticeProductChange = z.object({
  productId: z.int(),
  name: z.string(),
  status: ProductStatus,
});
export type PracticeProductChange = z.infer<typeof PracticeProductChange>;

export const PracticeServerChoice = z.strictObject({ server: PracticeServer });
