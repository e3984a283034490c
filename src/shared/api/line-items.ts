import { z } from 'zod';
import { isRefusedStatus } from './product-status';
import { Money, textLine } from './common';

// Bounds of a request's line items. With PRICE_MAX they keep the dearest valid order's pricing
// exact in whole cents: 50 lines of 1,000 pills a day for 90 days at 10,000.00 a pill.

/** Pills a day of a pack line, units per 30 days of an external line. */
export const QUANTITY_MAX = 1000;
/** Pills at one time of day: at most a whole line's quantity. */
export const DOSE_MAX = QUANTITY_MAX;
/** Line items of one order or protocol. */
export const LINE_ITEMS_MAX = 50;
export const PACK_DESCRIPTION_MAX = 100;

/** Pills per time of day. For a pack product the four add up to the line item's quantity. */
export const Administration = z.object({
  morning: z.int().min(0),
  afternoon: z.int().min(0),
  evening: z.int().min(0),
  sleep: z.int().min(0),
});
export type Administration = z.infer<typeof Administration>;

const dose = z.int().min(0).max(DOSE_MAX, `at most ${DOSE_MAX}`);
/** Administration in requests: each dose at most DOSE_MAX. */
export const AdministrationRequest = z.object({
  morning: dose,
  afternoon: dose,
  evening: dose,
  sleep: dose,
});

export const administrationTotal = (a: Administration): number =>
  a.morning + a.afternoon + a.evening + a.sleep;

const ProductId = z.int().positive();
const packDescription = textLine(PACK_DESCRIPTION_MAX).min(1);

/** Line item of a protocol create/update request. */
export const LineItemRequest = z.object({
  productId: ProductId,
  quantity: z.int().min(1, 'at least 1').max(QUANTITY_MAX, `at most ${QUANTITY_MAX}`),
  packDescription: packDescription.optional(),
  administration: AdministrationRequest.nullish(),
});
export type LineItemRequest = z.infer<typeof LineItemRequest>;

/** Line item of a 1.0.2 order create request: packDescription is required for pack items (checked against the catalog). */
export const OrderLineItemRequest = LineItemRequest;
export type OrderLineItemRequest = z.infer<typeof OrderLineItemRequest>;

/** Line item of a 1.0.1 order create request: packDescription always required. */
export const OrderLineItemRequestV101 = LineItemRequest.extend({ packDescription });
export type OrderLineItemRequestV101 = z.infer<typeof OrderLineItemRequestV101>;

/** The line items of a request: 1 to LINE_ITEMS_MAX. */
export const lineItemList = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .min(1, 'at least one line item')
    .max(LINE_ITEMS_MAX, `at most ${LINE_ITEMS_MAX} line items`);

/** Line item in protocol and 1.0.2 order responses. */
export const LineItem = z.object({
  productId: z.int(),
  name: z.string(),
  quantity: z.int(),
  packDescription: z.string().optional(),
  price: Money,
  discountedPrice: Money,
  totalPrice: Money,
  external: z.boolean(),
  imageUrl: z.string().nullable(),
  administration: Administration.nullable(),
});
export type LineItem = z.infer<typeof LineItem>;

/** Line item in the 1.0.1 order shapes (list orders, get order). */
export const LineItemV101 = z.object({
  productId: z.int(),
  quantity: z.int(),
  packDescription: z.string(),
  price: Money,
  discountedPrice: Money,
  administration: Administration.nullable(),
});
export type LineItemV101 = z.infer<typeof LineItemV101>;

/**
 * Line items as a multiset of productId × quantity: what a create fixes of its lines, for
 * matching a write whose outcome is unknown with what the server holds.
 */
export const lineItemsKey = (items: readonly { productId: number; quantity: number }[]): string =>
  items
    .map((li) => `${li.productId}x${li.quantity}`)
    .sort()
    .join(',');

/**
 * What a catalog check needs to know of a product. A status the app does not know is not refused
 * here: the server that sent it decides whether the product can be ordered.
 */
export interface CatalogEntry {
  external: boolean;
  status: string;
}

export interface LineItemProblem {
  /** Path inside the request body, e.g. ['lineItems', 0, 'administration']. */
  path: (string | number)[];
  type: 'missing' | 'invalid';
  message: string;
}

/**
 * The rules that need the catalog: the product exists and can be ordered, administration is
 * null for external products and sums to the quantity for pack products, packDescription is
 * present where the request kind demands it, and no product appears twice.
 */
const itemPath = (i: number, field: string): (string | number)[] => ['lineItems', i, field];

export function checkLineItemsAgainstCatalog(
  lineItems: readonly LineItemRequest[],
  lookup: (productId: number) => CatalogEntry | undefined,
  options: { packDescriptionRequiredForPack: boolean },
): LineItemProblem[] {
  const problems: LineItemProblem[] = [];
  const seen = new Set<number>();
  lineItems.forEach((item, i) => {
    if (seen.has(item.productId)) {
      problems.push({
        path: itemPath(i, 'productId'),
        type: 'invalid',
        message: 'product listed twice',
      });
    }
    seen.add(item.productId);
    const product = lookup(item.productId);
    if (!product) {
      problems.push({
        path: itemPath(i, 'productId'),
        type: 'invalid',
        message: `no product ${item.productId}`,
      });
      return;
    }
    if (isRefusedStatus(product.status)) {
      problems.push({
        path: itemPath(i, 'productId'),
        type: 'invalid',
        message: `product ${item.productId} is ${product.status} and cannot be ordered`,
      });
    }
    if (product.external) {
      if (item.administration != null) {
        problems.push({
          path: itemPath(i, 'administration'),
          type: 'invalid',
          message: 'must be null for an external product',
        });
      }
      return;
    }
    if (item.administration == null) {
      problems.push({
        path: itemPath(i, 'administration'),
        type: 'missing',
        message: 'required for a pack product',
      });
    } else if (administrationTotal(item.administration) !== item.quantity) {
      problems.push({
        path: itemPath(i, 'administration'),
        type: 'invalid',
        message: `morning + afternoon + evening + sleep must equal quantity (${item.quantity})`,
      });
    }
    if (options.packDescriptionRequiredForPack && !item.packDescription) {
      problems.push({
        path: itemPath(i, 'packDescription'),
        type: 'missing',
        message: 'required for a pack product',
      });
    }
  });
  return problems;
}
