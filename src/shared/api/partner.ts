import { z } from 'zod';
import { Timestamp } from './common';

export const HEX_COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const PartnerSettings = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  discount: z.string().nullable(),
  discountValue: z.number().min(0).max(1).nullable(),
  primaryColor: z.string().nullable(),
  secondaryColor: z.string().nullable(),
  logo: z.string().nullable(),
  phone: z.string().nullable(),
  supportEmail: z.string().nullable(),
  website: z.string().nullable(),
  webhookUrl: z.string().nullable(),
  billingAddressLine1: z.string().nullable(),
  billingAddressLine2: z.string().nullable(),
  billingCity: z.string().nullable(),
  billingState: z.string().nullable(),
  billingPostalCode: z.string().nullable(),
  billingCountry: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type PartnerSettings = z.infer<typeof PartnerSettings>;

const text = (max: number) =>
  z.string().max(max, `at most ${max} characters`).nullable().optional();
const httpUrl = z
  .url({
    protocol: /^https?$/,
    hostname: z.regexes.hostname,
    error: 'an absolute http or https URL',
  })
  .max(2048);

/**
 * PATCH /partners/settings: only the fields given change; null clears a field. Read-only
 * fields (id, name, description, discount, discountValue, timestamps) are rejected with 422.
 */
export const PartnerSettingsPatch = z.strictObject({
  primaryColor: z
    .string()
    .regex(HEX_COLOR_PATTERN, 'hex color such as #1a7f64')
    .nullable()
    .optional(),
  secondaryColor: z
    .string()
    .regex(HEX_COLOR_PATTERN, 'hex color such as #1a7f64')
    .nullable()
    .optional(),
  logo: text(2048),
  phone: text(40),
  supportEmail: z.email('email address').max(254).nullable().optional(),
  website: httpUrl.nullable().optional(),
  webhookUrl: httpUrl.nullable().optional(),
  billingAddressLine1: text(100),
  billingAddressLine2: text(100),
  billingCity: text(50),
  billingState: text(50),
  billingPostalCode: text(20),
  billingCountry: text(56),
});
export type PartnerSettingsPatch = z.infer<typeof PartnerSettingsPatch>;

export const WebhookSecret = z.object({ webhookSecret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

/** Standard Webhooks secret format: `whsec_` and base64 of the key bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
