import { z } from 'zod';

/**
 * The places an address of the app may be in: the 50 states, the District of Columbia and the
 * five inhabited territories, by USPS code. The spec asks only for "a state or province code of
 * exactly 2 characters" with a ZIP code of 5 digits, which makes every address a US one; these
 * codes all take 5-digit ZIP codes (docs/decisions.md, "US states"). The military codes (AA, AE,
 * AP) and the freely associated states are left out: no clinic ships supplements there yet.
 */
export const US_STATES = [
  { code: 'AL', name: 'Alabama' },
  { code: 'AK', name: 'Alaska' },
  { code: 'AZ', name: 'Arizona' },
  { code: 'AR', name: 'Arkansas' },
  { code: 'CA', name: 'California' },
  { code: 'CO', name: 'Colorado' },
  { code: 'CT', name: 'Connecticut' },
  { code: 'DE', name: 'Delaware' },
  { code: 'DC', name: 'District of Columbia' },
  { code: 'FL', name: 'Florida' },
  { code: 'GA', name: 'Georgia' },
  { code: 'HI', name: 'Hawaii' },
  { code: 'ID', name: 'Idaho' },
  { code: 'IL', name: 'Illinois' },
  { code: 'IN', name: 'Indiana' },
  { code: 'IA', name: 'Iowa' },
  { code: 'KS', name: 'Kansas' },
  { code: 'KY', name: 'Kentucky' },
  { code: 'LA', name: 'Louisiana' },
  { code: 'ME', name: 'Maine' },
  { code: 'MD', name: 'Maryland' },
  { code: 'MA', name: 'Massachusetts' },
  { code: 'MI', name: 'Michigan' },
  { code: 'MN', name: 'Minnesota' },
  { code: 'MS', name: 'Mississippi' },
  { code: 'MO', name: 'Missouri' },
  { code: 'MT', name: 'Montana' },
  { code: 'NE', name: 'Nebraska' },
  { code: 'NV', name: 'Nevada' },
  { code: 'NH', name: 'New Hampshire' },
  { code: 'NJ', name: 'New Jersey' },
  { code: 'NM', name: 'New Mexico' },
  { code: 'NY', name: 'New York' },
  { code: 'NC', name: 'North Carolina' },
  { code: 'ND', name: 'North Dakota' },
  { code: 'OH', name: 'Ohio' },
  { code: 'OK', name: 'Oklahoma' },
  { code: 'OR', name: 'Oregon' },
  { code: 'PA', name: 'Pennsylvania' },
  { code: 'RI', name: 'Rhode Island' },
  { code: 'SC', name: 'South Carolina' },
  { code: 'SD', name: 'South Dakota' },
  { code: 'TN', name: 'Tennessee' },
  { code: 'TX', name: 'Texas' },
  { code: 'UT', name: 'Utah' },
  { code: 'VT', name: 'Vermont' },
  { code: 'VA', name: 'Virginia' },
  { code: 'WA', name: 'Washington' },
  { code: 'WV', name: 'West Virginia' },
  { code: 'WI', name: 'Wisconsin' },
  { code: 'WY', name: 'Wyoming' },
  { code: 'AS', name: 'American Samoa' },
  { code: 'GU', name: 'Guam' },
  { code: 'MP', name: 'Northern Mariana Islands' },
  { code: 'PR', name: 'Puerto Rico' },
  { code: 'VI', name: 'U.S. Virgin Islands' },
] as const;

export type UsStateCode = (typeof US_STATES)[number]['code'];

const CODES: readonly UsStateCode[] = US_STATES.map((s) => s.code);

/** The message for a code that is none of US_STATES (the CSV import and the forms show it). */
export const NOT_A_STATE = 'a US state, DC or territory code (2 letters, such as OR or TX)';

const KNOWN = new Set<string>(CODES);

/** Whether `code` is the USPS code of one of US_STATES, exactly (upper case). */
export const isUsStateCode = (code: string): code is UsStateCode => KNOWN.has(code);

/**
 * A state's USPS code, exactly as US_STATES writes it (upper case). Typed as a string, as the
 * spec's address is, so that every request type stays the one ProtocolRequest infers.
 */
export const UsStateCode = z.string().refine(isUsStateCode, NOT_A_STATE);

/** "Oregon" for OR; undefined for a code that is not one. */
export const stateName = (code: string): string | undefined =>
  US_STATES.find((s) => s.code === code)?.name;

/** A name or code as people type it: case, dots and runs of spaces do not matter. */
const folded = (text: string): string =>
  text.normalize('NFKC').toLowerCase().replace(/\./g, '').replace(/\s+/g, ' ').trim();

const BY_TEXT = new Map<string, UsStateCode>(
  US_STATES.flatMap((s) => [
    [folded(s.code), s.code],
    [folded(s.name), s.code],
  ]),
);
// Other names people write for the same places.
BY_TEXT.set(folded('Washington DC'), 'DC');
BY_TEXT.set(folded('Virgin Islands'), 'VI');

/**
 * The code of a state written as its code or its full name, in any case ("tx", "Texas",
 * "TEXAS"); null when it is neither. Never cuts a name down to its first letters.
 */
export const stateCodeOf = (text: string): UsStateCode | null => BY_TEXT.get(folded(text)) ?? null;
