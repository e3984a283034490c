import type { ProductStatus } from './api';

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
