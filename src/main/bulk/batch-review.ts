import type { CreateOrderRequest, ProductRead } from '@shared/api';
import { centsToMoney, moneyToCents } from '@shared/money';
import { priceOrder, type Pricing } from '@shared/pricing';
import { TOTAL_UNKNOWN_DISCOUNT, TOTAL_UNKNOWN_PRODUCT } from '@shared/pricing-views';
import { productRefusal } from '@shared/api/product-status';
import {
  isHeldInReview,
  isSendableInReview,
  type BatchReviewView,
  type OrderLineView,
  type ReviewDetailView,
  type ReviewItemView,
} from '@shared/work-views';
import { storedPricing, type StoredPricing } from '../catalog/partner-pricing';
import type { DuplicateOrders } from './duplicate-orders';
import type { BatchStore } from './batch-store';
import type { ProtocolOrderSource } from '../protocols/protocol-model';
import {
  describeProblem,
  orderRequestFromProtocol,
  type ItemProblem,
} from '../orders/order-requests';

/** Product statuses worth a warning: the order ships late (those refused are `refusals`). */
const STATUS_WARNINGS: Partial<Record<ProductRead['status'], string>> = {
  BACKORDERED: 'is backordered: the order ships when it is back in stock',
};

export type ProductLookup = (id: number) => ProductRead | null;

export interface ReviewOptions {
  embedded: boolean;
  /** Orders the patients already have (the server's recent orders, other desks' included). */
  duplicates: Pick<DuplicateOrders, 'review'>;
  /** Per protocol chosen on Refills due, the last order of the supply it refills. */
  refillOf?: Readonly<Record<string, string>>;
}

/**
 * A reviewed protocol and the request it stands for (or its problems); `refused`: the lines the
 * local catalog says the server will refuse, each at its path (the item's `refusals` in words).
 */
export type Reviewed = {
  item: ReviewItemView;
  built: ReturnType<typeof orderRequestFromProtocol>;
  refused?: ItemProblem[];
};

/** The mirrored catalog, each product read once per review. */
export function productLookup(store: BatchStore): ProductLookup {
  const products = new Map<number, ProductRead | null>();
  return (id) => {
    if (!products.has(id)) products.set(id, store.products.get(id));
    return products.get(id)!;
  };
}

/**
 * What a batch of these protocols would be, without writing anything: per protocol the
 * estimated total (the shared pricing function, catalog prices and the partner's pricing terms
 * as last read), warnings about its products, the problems that leave it out (the checks
 * batches.submit makes: orderRequestFromProtocol, plus unknown and repeated protocols), and the
 * orders it would repeat (read from the server now): those are left out unless the user includes
 * them. No total at all, rather than a wrong one, while the terms have never been read or a
 * product is missing from the catalog. `exact` when the server prices with the same function.
 */
export async function reviewBatch(
  store: BatchStore,
  protocolLocalIds: readonly string[],
  options: ReviewOptions,
): Promise<BatchReviewView> {
  const pricing = storedPricing(store);
  const product = productLookup(store);
  const seen = new Set<string>();
  const reviewed = protocolLocalIds.map((localId): Reviewed => {
    const source = store.protocols.orderSource(localId);
    const left = (customerName: string, sourceId: string, problem: string): Reviewed => ({
      item: { ...blankItem(localId, customerName, sourceId), problems: [problem] },
      built: { problems: [{ path: '', message: problem }] },
    });
    if (!source) return left('', '', 'This protocol no longer exists here.');
    if (seen.has(localId))
      return left(source.customerName, source.sourceId, 'Listed twice: it is in the batch once.');
    seen.add(localId);
    return reviewSource(source, product, pricing);
  });
  const duplicateCheck = await markRepeats(reviewed, options.duplicates, options.refillOf);
  return summarize(
    reviewed.map((r) => r.item),
    pricing,
    options,
    duplicateCheck,
  );
}

/**
 * Marks each item that can be an order with the orders its patient already has of the same
 * content, and with an earlier item of the same content; says whether the server could be read
 * (when not, each create is still checked just before it is sent).
 */
export async function markRepeats(
  reviewed: readonly Reviewed[],
  duplicates: ReviewOptions['duplicates'],
  refillOf: ReviewOptions['refillOf'] = {},
): Promise<BatchReviewView['duplicateCheck']> {
  const sendable = reviewed.flatMap((r) =>
    r.item.problems.length === 0 && r.item.refusals.length === 0 && 'request' in r.built
      ? [{ item: r.item, request: r.built.request }]
      : [],
  );
  let found: Awaited<ReturnType<ReviewOptions['duplicates']['review']>>;
  try {
    found = await duplicates.review(
      sendable.map((s) => s.request),
      sendable.map((s) => refillOf[s.item.localId] ?? null),
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      checked: false,
      message: `The server's recent orders could not be read, so orders other desks made for these patients are not known yet (${reason}). Each order is still checked just before it is sent.`,
    };
  }
  sendable.forEach(({ item }, i) => {
    const { orders, sameAs, refill } = found[i]!;
    item.repeats = orders;
    item.refill = refill;
    item.sameAs = sameAs === null ? null : sendable[sameAs]!.item.localId;
  });
  return { checked: true, message: null };
}

/** An item with nothing known of it yet. */
const blankItem = (localId: string, customerName: string, sourceId: string): ReviewItemView => ({
  localId,
  customerName,
  sourceId,
  estimatedTotal: null,
  detail: null,
  warnings: [],
  problems: [],
  refusals: [],
  repeats: [],
  sameAs: null,
  refill: null,
});

/** One protocol as a review shows it, and the request it stands for (or its problems). */
export function reviewSource(
  source: ProtocolOrderSource,
  product: ProductLookup,
  pricing: StoredPricing | null,
): Reviewed {
  const base = blankItem(source.localId, source.customerName, source.sourceId);
  const warnings = productWarnings(source, product);
  const built = orderRequestFromProtocol(source, product);
  if (!('request' in built))
    return { item: { ...base, warnings, problems: built.problems.map(describeProblem) }, built };
  const { request } = built;
  // The server's own rule, foreseen from the local catalog (a product missing from it is left to
  // the server: it may be newer than the last sync; see "no estimate" below).
  const refused = request.lineItems.flatMap((li, i) => {
    const p = product(li.productId);
    const reason = p && productRefusal(li.productId, p);
    return reason ? [{ path: `lineItems.${i}.productId`, message: reason }] : [];
  });
  const refusals = refused.map((r) => r.message);
  const lines = request.lineItems.map((li) => {
    const p = product(li.productId);
    return p && { quantity: li.quantity, price: p.price, external: p.external };
  });
  const named = orderLines(request, product);
  const detail = (price: Pricing | null): ReviewDetailView => ({
    daysSupply: request.daysSupply,
    shippingMethod: request.shippingMethod,
    lines: named.map((line, i) => ({ ...line, total: price?.lines[i]?.totalPrice ?? null })),
    price: price && {
      discount: price.discount,
      volumeDiscount: price.totalVolumeDiscount,
      fees: price.totalFees,
      shipping: price.totalShipping,
      total: price.totalPrice,
    },
  });
  if (lines.some((l) => l === null)) {
    warnings.push('Not every product is in the local catalog (sync first): no estimate.');
    return { item: { ...base, detail: detail(null), warnings, refusals }, built, refused };
  }
  // Never a total without the partner's discount: that would be a price the server won't charge.
  const price = pricing
    ? priceOrder({
        daysSupply: request.daysSupply,
        shippingMethod: request.shippingMethod,
        discountValue: pricing.discountValue,
        lineItems: lines.filter((l) => l !== null),
      })
    : null;
  return {
    item: {
      ...base,
      estimatedTotal: price?.totalPrice ?? null,
      detail: detail(price),
      warnings,
      refusals,
    },
    built,
    refused,
  };
}

/** An order's products as a review or confirmation names them. */
export function orderLines(request: CreateOrderRequest, product: ProductLookup): OrderLineView[] {
  return request.lineItems.map((li) => {
    const p = product(li.productId);
    return {
      productId: li.productId,
      name: p?.name ?? `Product ${li.productId}`,
      quantity: li.quantity,
      external: p ? p.external : li.administration == null,
    };
  });
}

/**
 * The review's total: the sum of the estimates of the items sent as the review stands (not those
 * left out or that will be refused, nor possible duplicates until the user includes them), or why
 * there is none.
 */
export function summarize(
  items: ReviewItemView[],
  pricing: StoredPricing | null,
  options: { embedded: boolean },
  duplicateCheck: BatchReviewView['duplicateCheck'],
  { countHeld = false } = {},
): BatchReviewView {
  let cents = 0;
  let unpriced = false;
  for (const item of items) {
    if (!isSendableInReview(item) || (!countHeld && isHeldInReview(item))) continue;
    if (item.estimatedTotal === null) unpriced = true;
    else cents += moneyToCents(item.estimatedTotal);
  }
  return {
    items,
    estimatedTotal: unpriced ? null : centsToMoney(cents),
    totalUnknown: unpriced ? (pricing ? TOTAL_UNKNOWN_PRODUCT : TOTAL_UNKNOWN_DISCOUNT) : null,
    exact: options.embedded && pricing !== null && !unpriced,
    duplicateCheck,
  };
}

/** A warning per product of the draft whose catalog status is worth one. */
function productWarnings(source: ProtocolOrderSource, product: ProductLookup): string[] {
  return source.draft.lineItems.flatMap((li) => {
    const p = product(li.productId);
    const warning = p && STATUS_WARNINGS[p.status];
    return warning ? [`${p.name} (${p.id}) ${warning}.`] : [];
  });
}
