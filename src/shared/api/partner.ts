import { z } from 'zod';
import { Timestamp, textLine } from './common';
import { ADDRESS_LINE_MAX, CITY_MAX, POSTAL_CODE_MAX, emailAddress } from './customer';

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

/** Limits of the editable settings. */
export const URL_MAX = 2048;
export const PARTNER_PHONE_MAX = 40;
export const BILLING_LINE_MAX = ADDRESS_LINE_MAX;
export const BILLING_CITY_MAX = CITY_MAX;
export const BILLING_STATE_MAX = 50;
export const BILLING_POSTAL_CODE_MAX = POSTAL_CODE_MAX;
/** The longest country name in common use ("The United Kingdom of Great Britain and Northern Ireland"). */
export const BILLING_COUNTRY_MAX = 56;

/**
 * A clean absolute http(s) URL, exactly as it will be used: lower-case scheme, a host (and port)
 * without credentials, then an optional path and query of printable ASCII that needs no
 * escaping. No whitespace, control characters, backslashes or fragment: the URL parser would
 * strip or rewrite those, and the service stores and calls what it was sent, never a rewrite.
 */
export const HTTP_URL_PATTERN =
  /^https?:\/\/[A-Za-z0-9.\-:[\]]+(?:[/?][A-Za-z0-9\-._~%!$&'()*+,;=:@/?]*)?$/;
const URL_MESSAGE =
  'an absolute http or https URL without spaces, control characters, credentials or fragment';
export const HttpUrl = z
  .string()
  .regex(HTTP_URL_PATTERN, { message: URL_MESSAGE, abort: true })
  .check(
    z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: URL_MESSAGE, abort: true }),
  )
  .max(URL_MAX, `at most ${URL_MAX} characters`);

const text = (max: number) => textLine(max).nullable().optional();
const color = z
  .string()
  .regex(HEX_COLOR_PATTERN, 'hex color such as #1a7f64')
  .nullable()
  .optional();

/**
 * PATCH /partners/settings: only the fields given change; null clears a field. Read-only
 * fields (id, name, description, discount, discountValue, timestamps) are rejected with 422.
 */
export const PartnerSettingsPatch = z.strictObject({
  primaryColor: color,
  secondaryColor: color,
  logo: HttpUrl.nullable().optional(),
  phone: text(PARTNER_PHONE_MAX),
  supportEmail: emailAddress().nullable().optional(),
  website: HttpUrl.nullable().optional(),
  webhookUrl: HttpUrl.nullable().optional(),
  billingAddressLine1: text(BILLING_LINE_MAX),
  billingAddressLine2: text(BILLING_LINE_MAX),
  billingCity: text(BILLING_CITY_MAX),
  billingState: text(BILLING_STATE_MAX),
  billingPostalCode: text(BILLING_POSTAL_CODE_MAX),
  billingCountry: text(BILLING_COUNTRY_MAX),
});
export type PartnerSettingsPatch = z.infer<typeof PartnerSettingsPatch>;

export const WebhookSecret = z.object({ webhookSecret: z.string() });
export type WebhookSecret = z.infer<typeof WebhookSecret>;

/** Standard Webhooks secret format: `whsec_` and base64 of the key bytes. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
