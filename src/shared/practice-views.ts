import { z } from 'zod';
import { OrderStatus, ProductStatus, ShippingMethod } from './api';

/** How the practice server answers: as it should, 3 s late, or 503 to every request. */
export const PracticeServer = z.enum(['normal', 'slow', 'failing']);
export type PracticeServer = z.infer<typeof PracticeServer>;

/** How fast the practice server moves orders along on its own: a step every 5 min, 1 min, 15 s. */
export const PracticeSpeed = z.enum(['slow', 'normal', 'fast']);
export type PracticeSpeed = z.infer<typeof PracticeSpeed>;

/** The practice server's own fulfillment: paused or running, and at which speed. */
export const PracticeFulfillment = z.object({ paused: z.boolean(), speed: PracticeSpeed });
export type PracticeFulfillment = z.infer<typeof PracticeFulfillment>;

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
  /** Whether it moves orders along on its own, and how fast. */
  fulfillment: PracticeFulfillment.default({ paused: false, speed: 'normal' }),
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

/** Pause or resume the practice server's fulfillment, or change its speed (either or both). */
export const PracticeFulfillmentChoice = z
  .strictObject({ paused: z.boolean().optional(), speed: PracticeSpeed.optional() })
  .refine((c) => c.paused !== undefined || c.speed !== undefined, 'paused or speed');

/** Every order on its way moved one step: how many moved. */
export const PracticeStep = z.object({ moved: z.int().min(0) });
export type PracticeStep = z.infer<typeof PracticeStep>;
