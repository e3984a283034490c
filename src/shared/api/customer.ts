import { z } from 'zod';
import { hasVisibleCharacter, plainString, textLine } from './common';

/** Limits of the spec's Limits table. */
export const ADDRESS_LINE_MAX = 100;
export const CITY_MAX = 50;
export const ZIP_CODE_PATTERN = /^\d{5}$/;

/** Limits the spec leaves open, so that no request stores more than a form could show. */
export const SOURCE_ID_MAX = 100;
export const NAME_MAX = 100;
/** RFC 5321: the longest address a mail path can carry. */
export const EMAIL_MAX = 254;
export const PHONE_MAX = 40;
/** The 1.0.1 `zip` has no pattern: room for ZIP+4 and postal codes of other countries. */
export const POSTAL_CODE_MAX = 20;

/**
 * Required text: no control characters, then trimmed, then 1 to `max` characters of which at
 * least one is visible (a name of zero-width characters would show as an empty one).
 */
const required = (max: number) =>
  plainString()
    .trim()
    .min(1, { message: 'required', abort: true })
    .refine(hasVisibleCharacter, {
      message: 'at least one visible character, not only spaces or zero-width ones',
      abort: true,
    })
    .max(max, `at most ${max} characters`);

const addressCommon = {
  line1: required(ADDRESS_LINE_MAX),
  line2: textLine(ADDRESS_LINE_MAX).nullish(),
  city: required(CITY_MAX),
  state: plainString()
    .length(2, 'state or province code of exactly 2 characters')
    .refine(hasVisibleCharacter, 'state or province code of exactly 2 characters'),
};

/** Address in requests, 1.0.2: `zipCode` of exactly 5 digits. */
export const AddressRequest = z.object({
  ...addressCommon,
  zipCode: z.string().regex(ZIP_CODE_PATTERN, 'exactly 5 digits'),
});
export type AddressRequest = z.infer<typeof AddressRequest>;

/** Address in the 1.0.1 create-order request: `zip`, no pattern. */
export const AddressRequestV101 = z.object({ ...addressCommon, zip: required(POSTAL_CODE_MAX) });
export type AddressRequestV101 = z.infer<typeof AddressRequestV101>;

/** An email address of at most EMAIL_MAX characters (one issue when it is neither). */
export const emailAddress = () =>
  z
    .email({ error: 'email address', abort: true })
    .max(EMAIL_MAX, `at most ${EMAIL_MAX} characters`);

const customerCommon = {
  sourceId: required(SOURCE_ID_MAX),
  firstName: required(NAME_MAX),
  lastName: required(NAME_MAX),
  email: emailAddress().nullish(),
  phone: textLine(PHONE_MAX).nullish(),
};

export const CustomerRequest = z.object({ ...customerCommon, address: AddressRequest });
export type CustomerRequest = z.infer<typeof CustomerRequest>;

export const CustomerRequestV101 = z.object({ ...customerCommon, address: AddressRequestV101 });
export type CustomerRequestV101 = z.infer<typeof CustomerRequestV101>;

/** Address as the service returns it (1.0.2). */
export const Address = z.object({
  line1: z.string(),
  line2: z.string().nullable().optional(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
});
export type Address = z.infer<typeof Address>;

/** Address in the 1.0.1 order shapes: `zip`. */
export const AddressV101 = Address.omit({ zipCode: true }).extend({ zip: z.string() });
export type AddressV101 = z.infer<typeof AddressV101>;

/** Customer as returned in protocols and created orders: email and phone nullable. */
export const Customer = z.object({
  sourceId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: Address,
});
export type Customer = z.infer<typeof Customer>;

/** Customer in the 1.0.1 order shapes. Nullability is not stated there; we read leniently. */
export const CustomerV101 = Customer.extend({
  email: z.string().nullish(),
  phone: z.string().nullish(),
  address: AddressV101,
});
export type CustomerV101 = z.infer<typeof CustomerV101>;
