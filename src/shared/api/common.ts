import { z } from 'zod';

/** Money: a string of decimal digits with exactly two decimals, as the spec writes amounts. */
export const Money = z.string().regex(/^-?\d+\.\d{2}$/, 'money amount with two decimals');
export type Money = z.infer<typeof Money>;

/**
 * The highest catalog price a client may set: per pill for a pack product, per 30-day unit for an
 * external one. With QUANTITY_MAX and LINE_ITEMS_MAX it keeps every order's pricing exact in
 * whole cents (the largest intermediate, the volume discount of the dearest order, stays below
 * 2^53).
 */
export const PRICE_MAX = '10000.00';
/** 0.00 to 10000.00: two decimals, no sign, no leading zeros. */
export const PRICE_PATTERN = /^(?:(?:0|[1-9]\d{0,3})\.\d{2}|10000\.00)$/;
/** A price a client sets: Money from 0.00 to PRICE_MAX. */
export const Price = z
  .string()
  .regex(PRICE_PATTERN, `an amount from 0.00 to ${PRICE_MAX} with two decimals`);
export type Price = z.infer<typeof Price>;

/**
 * Control characters (Unicode Cc: U+0000-U+001F, U+007F-U+009F). No field a client writes is
 * multi-line text, so no field takes one, not even a tab or a line break.
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/**
 * A lone UTF-16 surrogate: one half of a pair (an emoji, a rare CJK character) without the other.
 * JSON can carry one (`"\ud800"`); it is no character at all, and stored it becomes U+FFFD or an
 * encoding error wherever the text goes next (a CSV file, a label, another service).
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether `text` is well-formed UTF-16: no lone surrogate (String.prototype.isWellFormed). */
export const isWellFormedText = (text: string): boolean => !LONE_SURROGATE.test(text);

/**
 * Anything but whitespace and the characters Unicode calls default-ignorable: shown as nothing
 * (zero-width space, joiners, word joiner, U+FEFF, soft hyphen, bidirectional marks, variation
 * selectors, Hangul fillers).
 */
const VISIBLE_CHARACTER = /[^\s\p{Default_Ignorable_Code_Point}]/u;
/** Whether `text` shows anything: a name of only zero-width characters looks empty on screen. */
export const hasVisibleCharacter = (text: string): boolean => VISIBLE_CHARACTER.test(text);

/**
 * A string without control characters or lone surrogates. The checks run first, on the value as
 * sent (nothing is stripped or trimmed before them), and a failure skips the field's other checks:
 * one issue per field.
 */
export const plainString = () =>
  z
    .string()
    .regex(NO_CONTROL_CHARACTERS, {
      message: 'no control characters (such as NUL, tab or a line break)',
      abort: true,
    })
    .refine(isWellFormedText, {
      message: 'no unpaired surrogate (half of an emoji or other character)',
      abort: true,
    });

/** One line of free text: no control characters, at most `max` characters. */
export const textLine = (max: number) => plainString().max(max, `at most ${max} characters`);

/** ISO 8601 date-time, with offset or Z. */
export const Timestamp = z.iso.datetime({ offset: true });

export const DAYS_SUPPLY_VALUES = [30, 60, 90] as const;
export const DaysSupply = z.literal(DAYS_SUPPLY_VALUES, {
  error: 'daysSupply must be 30, 60 or 90',
});
export type DaysSupply = z.infer<typeof DaysSupply>;

export const SHIPPING_METHODS = ['STANDARD', 'EXPRESS', 'OVERNIGHT'] as const;
export const ShippingMethod = z.enum(SHIPPING_METHODS);
export type ShippingMethod = z.infer<typeof ShippingMethod>;

/** 1.0.2 spelling of the order type. */
export const ORDER_TYPES = ['ONE_TIME', 'SUBSCRIPTION'] as const;
export const OrderType = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof OrderType>;

/** 1.0.1 spelling: ONE-TIME with a hyphen. */
export const OrderTypeV101 = z.enum(['ONE-TIME', 'SUBSCRIPTION']);
export type OrderTypeV101 = z.infer<typeof OrderTypeV101>;

/** The 1.0.2 order status set (create order response and webhooks). */
export const ORDER_STATUSES = [
  'NEW',
  'PROCESSING',
  'DISPENSING',
  'FILLED',
  'FULFILLED',
  'AWAITING_SHIPMENT',
  'SHIPPED',
  'DELIVERED',
  'CANCELLED',
] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** The 1.0.1 order status set (list orders filter, get order). */
export const ORDER_STATUSES_V101 = [
  'CREATED',
  'CANCELLED',
  'PROCESSING',
  'FULFILLED',
  'AWAITING_SHIPMENT',
  'SHIPPED',
] as const;
export const OrderStatusV101 = z.enum(ORDER_STATUSES_V101);
export type OrderStatusV101 = z.infer<typeof OrderStatusV101>;

/** The statuses a webhook is sent for: every 1.0.2 status except DELIVERED. */
export const WebhookStatus = OrderStatus.exclude(['DELIVERED']);
export type WebhookStatus = z.infer<typeof WebhookStatus>;

export const PRODUCT_STATUSES = ['ACTIVE', 'DRAFT', 'BACKORDERED', 'DISCONTINUED'] as const;
export const ProductStatus = z.enum(PRODUCT_STATUSES);
export type ProductStatus = z.infer<typeof ProductStatus>;

/** Page size of list operations: 1 to 100, default 10. */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 100;
export const PAGE_LIMIT_DEFAULT = 10;

export const Direction = z.enum(['next', 'previous']);
export type Direction = z.infer<typeof Direction>;

/** Opaque pagination cursor: null when there is no page in the requested direction. */
export const Cursor = z.string().nullable();
