import type { ProductStatus } from './common';

/**
 * Which products an order or a protocol may hold: the sandbox refuses DRAFT and DISCONTINUED
 * products with a 422 on the line (docs/decisions.md, "Orderable products"), so a picker offers
 * them last and disabled, with the reason. A status the app does not know is left to the server.
 */
export const NOT_ORDERABLE: Partial<Record<ProductStatus, string>> = {
  DRAFT: 'Not released yet: a draft product cannot be ordered',
  DISCONTINUED: 'Discontinued: it cannot be ordered',
};

/** Why a product of this status cannot be ordered, or null when it can (or the server decides). */
export const notOrderableReason = (status: string): string | null =>
  Object.hasOwn(NOT_ORDERABLE, status) ? NOT_ORDERABLE[status as ProductStatus]! : null;

/**
 * Whether the server refuses a product of this status in an order or a protocol: the one rule
 * the sandbox decides by and the app foresees by (the batch review, the wording of a refusal).
 */
export const isRefusedStatus = (status: string): boolean => notOrderableReason(status) !== null;

/** What a refused product is, after its name: "Magnesium Glycinate is discontinued". */
const REFUSED_WORDS: Partial<Record<ProductStatus, string>> = {
  DRAFT: 'is a draft product, not released yet',
  DISCONTINUED: 'is discontinued',
};

/**
 * Why the server refuses (or will refuse) a line, in plain words, from the product as the catalog
 * has it: null when the catalog says it can be ordered. A product the catalog does not hold is
 * named by its id.
 */
export function productRefusal(
  productId: number,
  product: { name: string; status: string } | null,
): string | null {
  if (!product) return `Product ${productId} is not in the partner's catalog`;
  if (!isRefusedStatus(product.status)) return null;
  return `${product.name} ${REFUSED_WORDS[product.status as ProductStatus]!}`;
}

/**
 * The order a picker lists statuses in: what can be ordered first (active, then backordered),
 * then a status the app does not know, then what cannot be ordered. Within a status, by name.
 */
export const PICKER_STATUS_ORDER: readonly ProductStatus[] = [
  'ACTIVE',
  'BACKORDERED',
  'DRAFT',
  'DISCONTINUED',
];

/** A status's place in PICKER_STATUS_ORDER; an unknown status between the orderable and the rest. */
export function pickerRank(status: string): number {
  const i = PICKER_STATUS_ORDER.indexOf(status as ProductStatus);
  if (i === -1) return 2;
  return i < 2 ? i : i + 1;
}
