import { z } from 'zod';
import { AddressRequest, CustomerRequest, PHONE_MAX, ProtocolRequest, textLine } from './api';
import { UsStateCode, isUsStateCode } from './us-states';
import { zipStateMismatch } from './zip-prefixes';

/** A phone number's length in digits: the shortest local number to E.164's longest. */
export const PHONE_DIGITS_MIN = 7;
export const PHONE_DIGITS_MAX = 15;
export const NOT_A_PHONE = `a phone number of ${PHONE_DIGITS_MIN} to ${PHONE_DIGITS_MAX} digits; spaces, dashes, dots, brackets and a leading + may be used, such as (503) 555-0100 or +1 503 555 0100`;

/** Digits with the usual separators, + only first; letters, "x123" extensions and the like not. */
export function isPhoneNumber(text: string): boolean {
  if (!/^\+?[0-9 ().-]+$/.test(text.trim())) return false;
  const digits = text.replace(/\D/g, '').length;
  return digits >= PHONE_DIGITS_MIN && digits <= PHONE_DIGITS_MAX;
}

/** The phone as this app takes it: the spec's free text of at most PHONE_MAX, and a number. */
export const PhoneInput = textLine(PHONE_MAX).refine(isPhoneNumber, NOT_A_PHONE);

const zipAndState = z.object({ state: UsStateCode, zipCode: AddressRequest.shape.zipCode });

/**
 * The ZIP code's first three digits must deliver to the state (src/shared/zip-prefixes.ts); the
 * issue goes on the ZIP code. Checked only once both are valid on their own: one issue a field.
 */
export const zipMatchesState = <S extends z.ZodType<{ state: string; zipCode: string }>>(
  schema: S,
): S =>
  schema.superRefine(
    (address, ctx) => {
      if (!isUsStateCode(address.state)) return;
      const mismatch = zipStateMismatch(address.zipCode, address.state);
      if (mismatch) ctx.addIssue({ code: 'custom', path: ['zipCode'], message: mismatch });
    },
    { when: (payload) => zipAndState.safeParse(payload.value).success },
  );

/**
 * A protocol as this app lets people write it: the spec's ProtocolRequest, with the address's
 * state one of US_STATES whose ZIP prefixes hold the ZIP code, and the phone a phone number (the
 * spec asks only for 2 characters and free text, so "TE", "10025 in Texas" and "abc" would reach
 * the server). The sandbox keeps the spec's rule; the app's own boundaries (IPC, the CSV import,
 * the store's writes) use these. A copy read back from the store or the server is not refused
 * for them (docs/decisions.md, "US states", "Phone and ZIP code"): the editor shows the problem
 * on its field and asks for a valid value before it is saved again.
 */
export const AddressInput = zipMatchesState(AddressRequest.extend({ state: UsStateCode }));
export type AddressInput = z.infer<typeof AddressInput>;

export const CustomerInput = CustomerRequest.extend({
  phone: PhoneInput.nullish(),
  address: AddressInput,
});
export type CustomerInput = z.infer<typeof CustomerInput>;

export const ProtocolInput = ProtocolRequest.extend({ customer: CustomerInput });
export type ProtocolInput = z.infer<typeof ProtocolInput>;
