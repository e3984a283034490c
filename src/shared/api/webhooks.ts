import { z } from 'zod';
import { Timestamp, WebhookStatus } from './common';
import { Checkpoint } from './orders';

/** Body of a status webhook (the spec's Payload table). */
export const WebhookPayload = z.object({
  order: z.object({
    orderId: z.string(),
    status: WebhookStatus,
    fulfillmentInfo: z
      .object({
        carrier: z.string().nullable(),
        trackingNumber: z.string().nullable(),
        trackingStatus: z.string().nullable(),
        trackingUrl: z.string().nullable(),
        checkpoints: z.array(Checkpoint).nullable(),
      })
      .optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;

/** Standard Webhooks headers the service sends with each delivery. */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
