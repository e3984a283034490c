import { z } from 'zod';
import type { ProductRead } from '../../shared/api';
import { centsToMoney, moneyToCents } from '../../shared/money';
import { priceOrder } from '../../shared/pricing';
import type { BatchReviewView, ReviewItemView } from '../../shared/work-views';
import type { LocalStore } from '../store';
import { SYNC_KEYS } from '../store/sync-state-repo';
import type { ProtocolOrderSource } from '../protocols/protocol-model';
import { orderRequestFromProtocol, type ItemProblem } from './order-requests';

/** What the partner's discount is known to be: a value (null: none), or never seen. */
export type KnownDiscount = { known: true; value: number | null } | { known: false };

/** The discount last answered by the partner settings (see SYNC_KEYS.partnerDiscount). */
export function knownDiscount(store: LocalStore): KnownDiscount {
  if (!store.syncState.has(SYNC_KEYS.partnerDiscount)) return { known: false };
  return {
    known: true,
    value: store.syncState.get(SYNC_KEYS.partnerDiscount, z.number().min(0).max(1).nullable()),
  };
}

/** Remembers the partner's discount as the settings answered it. */
export function rememberDiscount(store: LocalStore, discountValue: number | null): void {
  store.syncState.set(SYNC_KEYS.partnerDiscount, discountValue);
}

/** Product statuses worth a warning: the order may be refused or ship late. */
const STATUS_WARNINGS: Partial<Record<ProductRead['status'], string>> = {
  DISCONTINUED: 'is discontinued: the server will refuse the order',
  DRAFT: 'is a draft product, not orderable yet: the server will refuse the order',
  BACKORDERED: 'is backordered: the order ships when it is back in stock',
};

const describeProblem = (p: ItemProblem) => (p.path ? `${p.path}: ${p.message}` : p.message);

/**
 * What a batch of these protocols would be, without writing anything: per protocol the
 * estimated total (the shared pricing function, catalog prices and the partner discount as last
 * known), warnings about its products, and the problems that leave it out (the checks
 * batches.submit makes: orderRequestFromProtocol, plus unknown and repeated protocols).
 * `exact` when the server prices with the same function and the discount is known.
 */
export function reviewBatch(
  store: LocalStore,
  protocolLocalIds: readonly string[],
  options: { embedded: boolean },
): BatchReviewView {
  const discount = knownDiscount(store);
  const products = new Map<number, ProductRead | null>();
  const product = (id: number): ProductRead | null => {
    if (!products.has(id)) products.set(id, store.products.get(id));
    return products.get(id)!;
  };
  const seen = new Set<string>();
  let total = 0;
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
    const base = { localId, customerName: source.customerName, sourceId: source.sourceId };
    if (seen.has(localId))
      return {
        ...base,
        estimatedTotal: null,
        warnings: [],
        problems: ['Listed twice: it is in the batch once.'],
      };
    seen.add(localId);
    const warnings = productWarnings(source, product);
    const built = orderRequestFromProtocol(source, product);
    if (!('request' in built))
      return {
        ...base,
        estimatedTotal: null,
        warnings,
        problems: built.problems.map(describeProblem),
      };
    const { request } = built;
    const lines = request.lineItems.map((li) => {
      const p = product(li.productId);
      return p && { quantity: li.quantity, price: p.price, external: p.external };
    });
    if (lines.some((l) => l === null)) {
      warnings.push('Not every product is in the local catalog (sync first): no estimate.');
      return { ...base, estimatedTotal: null, warnings, problems: [] };
    }
    const priced = priceOrder({
      daysSupply: request.daysSupply,
      shippingMethod: request.shippingMethod,
      discountValue: discount.known ? discount.value : null,
      lineItems: lines.filter((l) => l !== null),
    });
    total += moneyToCents(priced.totalPrice);
    return { ...base, estimatedTotal: priced.totalPrice, warnings, problems: [] };
  });
  return {
    items,
    estimatedTotal: centsToMoney(total),
    exact: options.embedded && discount.known,
  };
}

/** A warning per product of the draft whose catalog status is worth one. */
function productWarnings(
  source: ProtocolOrderSource,
  product: (id: number) => ProductRead | null,
): string[] {
  return source.draft.lineItems.flatMap((li) => {
    const p = product(li.productId);
    const warning = p && STATUS_WARNINGS[p.status];
    return warning ? [`${p.name} (${p.id}) ${warning}.`] : [];
  });
}
