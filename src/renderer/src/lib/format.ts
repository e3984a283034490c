import { isKnownProductStatus, type ProductStatus } from '@shared/api';
import type { ConnectionKind } from '@shared/connection';

// The API's amounts are decimal strings in the partner's currency; the catalog is priced in dollars.
const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export function formatMoney(amount: string): string {
  const n = Number(amount);
  return Number.isFinite(n) ? money.format(n) : amount;
}

/**
 * What a catalog price is for (docs/pricing.md): one pill of a pack product ("capsule",
 * "tablet"...), one container of an external product (a tub of powder, a bottle).
 */
export function priceUnit(product: { external: boolean; form: string }): string {
  return product.external ? 'container' : product.form;
}

const SERVING_PLURAL: Record<string, string> = {
  softgel: 'softgels',
  tablet: 'tablets',
  capsule: 'capsules',
  gummy: 'gummies',
  scoop: 'scoops',
};

/**
 * One serving as the label's facts panel gives it: "1 scoop", "2 capsules" (a type the app does
 * not know is named as it came).
 */
export function servingText(panel: { servingSize: number; type: string }): string {
  const plural = Object.hasOwn(SERVING_PLURAL, panel.type) ? SERVING_PLURAL[panel.type] : undefined;
  const unit = panel.servingSize === 1 || !plural ? panel.type : plural;
  return `${panel.servingSize} ${unit}`;
}

export const STATUS_LABELS: Record<ProductStatus, string> = {
  ACTIVE: 'Active',
  BACKORDERED: 'Backordered',
  DRAFT: 'Draft',
  DISCONTINUED: 'Discontinued',
};

/**
 * A value of one of the server's enums in words: its label when the app knows it, else the
 * value as it came, humanised, and what it is: ON_HOLD -> "On hold (unknown status)".
 */
export function valueLabel<T extends string>(
  labels: Record<T, string>,
  value: string,
  what = 'status',
): string {
  return Object.hasOwn(labels, value)
    ? labels[value as T]
    : `${humanize(value.toLowerCase())} (unknown ${what})`;
}

/** A product status in words (one the app does not know as it came, marked so). */
export const productStatusLabel = (status: string): string =>
  isKnownProductStatus(status) ? STATUS_LABELS[status] : valueLabel(STATUS_LABELS, status);

export const KIND_LABELS: Record<ConnectionKind, string> = {
  embedded: 'Local sandbox',
  'partner-sandbox': 'Partner sandbox',
  production: 'Production',
};

/** "gluten_free" -> "Gluten free", "non_gmo" -> "Non-GMO". */
export function humanize(token: string): string {
  const special: Record<string, string> = { non_gmo: 'Non-GMO', usp_verified: 'USP verified' };
  if (special[token]) return special[token];
  const words = token.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One formatter for every count: building one per call (toLocaleString) costs more than formatting. */
const COUNT = new Intl.NumberFormat('en-US');

/** A count as the app writes it: digits grouped (12,345), the same on every machine. */
export function formatCount(n: number): string {
  return COUNT.format(n);
}

/**
 * A delivery window in days: `2–5 days`; one number when both ends agree (`2 days`, `1 day`),
 * as "2–2 days" reads like a typo. `noun` is the singular ("business day").
 */
export function dayRange(min: number, max: number, noun = 'day'): string {
  if (min === max) return plural(min, noun);
  return `${formatCount(min)}–${formatCount(max)} ${noun}s`;
}

/** A count and its noun: `1 protocol`, `12,345 protocols`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A file size for people: `812 bytes`, `4.2 KB`, `13.5 MB` (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
