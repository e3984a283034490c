import type { CreateOrderRequest, Product, ProtocolRequest } from '../../shared/api';
import { centsToMoney, moneyToCents } from '../../shared/money';
import { priceOrder } from '../../shared/pricing';
import { TOTAL_UNKNOWN_DISCOUNT, TOTAL_UNKNOWN_PRODUCT } from '../../shared/pricing-views';
import type { BatchReviewView, OrderReviewView, ReviewItemView } from '../../shared/work-views';
import { storedPricing, type StoredPricing } from '../catalog/partner-pricing';
import type { LocalStore } from '../store';
import type { ProtocolOrderSource } from '../protocols/protocol-model';
import {
  BatchRejectedError,
  orderRequestFromProtocol,
  protocolLabel,
  type ItemProblem,
} from './order-requests';

/** Product statuses worth a warning: the order may be refused or ship late. */
const STATUS_WARNINGS: Partial<Record<Product['status'], string>> = {
  DISCONTINUED: 'is discontinued: the server will refuse the order',
  DRAFT: 'is a draft product, not orderable yet: the server will refuse the order',
  BACKORDERED: 'is backordered: the order ships when it is back in stock',
};

const describeProblem = (p: ItemProblem) => (p.path ? `${p.path}: ${p.message}` : p.message);

type ProductLookup = (id: number) => Product | null;

/** The mirrored catalog, each product read once per review. */
function productLookup(store: LocalStore): ProductLookup {
  const products = new Map<number, Product | null>();
  return (id) => {
    if (!products.has(id)) products.set(id, store.products.get(id));
    return products.get(id)!;
  };
}

/**
 * What a batch of these protocols would be, without writing anything: per protocol the
 * estimated total (the shared pricing function, catalog prices and the partner's pricing terms
 * as last read), warnings about its products, and the problems that leave it out (the checks
 * batches.submit makes: orderRequestFromProtocol, plus unknown and repeated protocols). No
 * total at all, rather than a wrong one, while the terms have never been read or a product is
 * missing from the catalog. `exact` when the server prices with the same function.
 */
export function reviewBatch(
  store: LocalStore,
  protocolLocalIds: readonly string[],
  options: { embedded: boolean },
): BatchReviewView {
  const pricing = storedPricing(store);
  const product = productLookup(store);
  const seen = new Set<string>();
  const items = protocolLocalIds.map((localId): ReviewItemView => {
    const source = store.protocols.orderSource(localId);
    if (!source)
      return {
        localId,
        customerName: '',
        sourceId: '',
        estimatedTotal: null,
        warnings: [],
        problems: ['This protocol no longer exists here.'],
      };
    if (seen.has(localId))
      return {
        localId,
        customerName: source.customerName,
        sourceId: source.sourceId,
        estimatedTotal: null,
        warnings: [],
        problems: ['Listed twice: it is in the batch once.'],
      };
    seen.add(localId);
    return reviewSource(source, product, pricing).item;
  });
  return summarize(items, pricing, options);
}

/**
 * One order before it is placed (Order now, a new order from scratch), exactly as a batch of
 * one: the same item, estimate and total, plus what the order holds for its confirmation.
 * Throws BatchRejectedError, as BulkSubmitter.createOne would, when it is not a complete order.
 */
export function reviewOrder(
  store: LocalStore,
  input: { protocolLocalId: string } | { draft: ProtocolRequest },
  options: { embedded: boolean },
): OrderReviewView {
  const source =
    'draft' in input
      ? scratchSource(input.draft)
      : store.protocols.orderSource(input.protocolLocalId);
  if (!source)
    throw new BatchRejectedError([
      {
        protocolLocalId: 'protocolLocalId' in input ? input.protocolLocalId : '',
        label: null,
        problems: [{ path: '', message: 'This protocol no longer exists here.' }],
      },
    ]);
  const pricing = storedPricing(store);
  const product = productLookup(store);
  const { item, built } = reviewSource(source, product, pricing);
  if (!('request' in built))
    throw new BatchRejectedError([
      { protocolLocalId: source.localId, label: protocolLabel(source), problems: built.problems },
    ]);
  return { ...summarize([item], pricing, options), order: orderSummary(built.request, product) };
}

/** A draft written from scratch, as the order source a protocol would be (no server copy). */
const scratchSource = (draft: ProtocolRequest): ProtocolOrderSource => ({
  localId: '',
  customerName: `${draft.customer.firstName} ${draft.customer.lastName}`,
  sourceId: draft.customer.sourceId,
  deleted: false,
  draft,
  serverLineItems: null,
});

/** One protocol as a review shows it, and the request it stands for (or its problems). */
function reviewSource(
  source: ProtocolOrderSource,
  product: ProductLookup,
  pricing: StoredPricing | null,
): { item: ReviewItemView; built: ReturnType<typeof orderRequestFromProtocol> } {
  const base = {
    localId: source.localId,
    customerName: source.customerName,
    sourceId: source.sourceId,
  };
  const warnings = productWarnings(source, product);
  const built = orderRequestFromProtocol(source, product);
  if (!('request' in built))
    return {
      item: {
        ...base,
        estimatedTotal: null,
        warnings,
        problems: built.problems.map(describeProblem),
      },
      built,
    };
  const { request } = built;
  const lines = request.lineItems.map((li) => {
    const p = product(li.productId);
    return p && { quantity: li.quantity, price: p.price, external: p.external };
  });
  if (lines.some((l) => l === null)) {
    warnings.push('Not every product is in the local catalog (sync first): no estimate.');
    return { item: { ...base, estimatedTotal: null, warnings, problems: [] }, built };
  }
  // Never a total without the partner's discount: that would be a price the server won't charge.
  const estimatedTotal = pricing
    ? priceOrder({
        daysSupply: request.daysSupply,
        shippingMethod: request.shippingMethod,
        discountValue: pricing.discountValue,
        lineItems: lines.filter((l) => l !== null),
      }).totalPrice
    : null;
  return { item: { ...base, estimatedTotal, warnings, problems: [] }, built };
}

/** The review's total: the sum of the included items' estimates, or why there is none. */
function summarize(
  items: ReviewItemView[],
  pricing: StoredPricing | null,
  options: { embedded: boolean },
): BatchReviewView {
  let cents = 0;
  let unpriced = false;
  for (const item of items) {
    if (item.problems.length > 0) continue;
    if (item.estimatedTotal === null) unpriced = true;
    else cents += moneyToCents(item.estimatedTotal);
  }
  return {
    items,
    estimatedTotal: unpriced ? null : centsToMoney(cents),
    totalUnknown: unpriced ? (pricing ? TOTAL_UNKNOWN_PRODUCT : TOTAL_UNKNOWN_DISCOUNT) : null,
    exact: options.embedded && pricing !== null && !unpriced,
  };
}

/** What the order holds, as its confirmation names it. */
function orderSummary(
  request: CreateOrderRequest,
  product: ProductLookup,
): OrderReviewView['order'] {
  return {
    customerName: `${request.customer.firstName} ${request.customer.lastName}`,
    sourceId: request.customer.sourceId,
    daysSupply: request.daysSupply,
    shippingMethod: request.shippingMethod,
    orderType: request.orderType,
    lines: request.lineItems.map((li) => {
      const p = product(li.productId);
      return {
        productId: li.productId,
        name: p?.name ?? `Product ${li.productId}`,
        quantity: li.quantity,
        external: p ? p.external : li.administration == null,
      };
    }),
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
