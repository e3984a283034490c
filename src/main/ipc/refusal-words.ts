import type { ValidationIssue } from '@shared/api';
import { productRefusal } from '@shared/api/product-status';

/** What the wording of a refusal may look up besides the server's issue. */
export interface RefusalContext {
  /** The product of each line of the request the server refused, by index. */
  lineProducts?: readonly number[];
  /** The product as the local catalog has it (for its name). */
  product?: (id: number) => { name: string } | null;
}

/** A refused status the server names ("product 1028 is DISCONTINUED and cannot be ordered"). */
const STATUS = /\b(DISCONTINUED|DRAFT)\b/i;
/** The server saying it has no such product ("no product 4242"). */
const UNKNOWN = /\bno product\b|\bunknown product\b|\bnot found\b|\bdoes not exist\b/i;

/**
 * A server's issue on a line's product in plain words, as the review foresees it ("Magnesium
 * Glycinate is discontinued", "Product 4242 is not in the partner's catalog"); null for any other
 * issue, which keeps its field's name and the server's words. The product is the one the message
 * names, else the request's line at the issue's place.
 */
export function plainLineIssue(issue: ValidationIssue, context: RefusalContext): string | null {
  const loc = issue.loc.filter((p) => p !== 'body');
  if (loc[0] !== 'lineItems' || loc[2] !== 'productId' || !/^\d+$/.test(String(loc[1])))
    return null;
  const text = issue.msg ?? '';
  const named = /\bproduct (\d+)\b/i.exec(text)?.[1];
  const id = named !== undefined ? Number(named) : context.lineProducts?.[Number(loc[1])];
  if (id === undefined) return null;
  const status = STATUS.exec(text)?.[1]?.toUpperCase();
  if (status)
    return productRefusal(id, { name: context.product?.(id)?.name ?? `Product ${id}`, status });
  return UNKNOWN.test(text) ? productRefusal(id, null) : null;
}
