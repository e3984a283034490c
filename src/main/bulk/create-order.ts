// One order, Order now (from a saved protocol) or a new order from scratch: reviewed and created
// as a batch of one, so it is sent exactly once by the job runner and followed on its batch like
// any other (the bulk submitter does those mechanics).

import type { CreateOrderRequest, ProtocolRequest } from '@shared/api';
import type { OrderReviewView } from '@shared/work-views';
import {
  markRepeats,
  productLookup,
  reviewSource,
  summarize,
  orderLines,
  type ProductLookup,
  type ReviewOptions,
} from './batch-review';
import type { BulkSubmitter } from './bulk-submitter';
import { BatchRejectedError, orderRequestFromDraft, protocolLabel } from '../orders/order-requests';
import { storedPricing } from '../catalog/partner-pricing';
import type { ProtocolOrderSource } from '../protocols/protocol-model';
import type { BatchStore } from './batch-store';

/** Where one order comes from: a saved protocol, or a draft written from scratch. */
export type OrderInput = { protocolLocalId: string } | { draft: ProtocolRequest };

/**
 * One order before it is placed (Order now, a new order from scratch), exactly as a batch of
 * one: the same item, estimate, total and duplicate check, plus what the order holds for its
 * confirmation. Throws BatchRejectedError, as createOrder would, when it is not a complete order.
 */
export async function reviewOrder(
  store: BatchStore,
  input: OrderInput,
  options: ReviewOptions,
): Promise<OrderReviewView> {
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
  const reviewed = reviewSource(source, product, pricing);
  const { built } = reviewed;
  if (!('request' in built))
    throw new BatchRejectedError([
      { protocolLocalId: source.localId, label: protocolLabel(source), problems: built.problems },
    ]);
  // What the local catalog says the server will refuse is not offered for confirmation either.
  if (reviewed.refused?.length)
    throw new BatchRejectedError([
      {
        protocolLocalId: source.localId,
        label: protocolLabel(source),
        problems: reviewed.refused,
      },
    ]);
  const duplicateCheck = await markRepeats([reviewed], options.duplicates);
  return {
    // Its confirmation is for this one order, ordered again if the user says so: its estimate
    // is the total whether it repeats an order or not.
    ...summarize([reviewed.item], pricing, options, duplicateCheck, { countHeld: true }),
    order: orderSummary(built.request, product),
  };
}

/**
 * One order, exactly once, as a batch of one: from a saved protocol (as a batch of that one
 * protocol), or from a draft written from scratch (frozen with no protocol). Returns the batch's
 * id. Throws BatchRejectedError when it is not a complete order (for a scratch draft,
 * protocolLocalId is '').
 */
export function createOrder(
  { store, bulk }: { store: BatchStore; bulk: Pick<BulkSubmitter, 'submit' | 'submitBuilt'> },
  input: OrderInput,
  options: { allowDuplicateOf?: readonly string[] } = {},
): string {
  const allow = options.allowDuplicateOf?.length ? options.allowDuplicateOf : undefined;
  if ('protocolLocalId' in input)
    return bulk.submit([input.protocolLocalId], {
      concurrency: 1,
      source: 'protocol',
      ...(allow ? { allowDuplicateOf: { [input.protocolLocalId]: allow } } : {}),
    });
  const built = orderRequestFromDraft(input.draft, (id) => store.products.get(id));
  if (!('request' in built)) {
    const c = input.draft.customer;
    throw new BatchRejectedError([
      {
        protocolLocalId: '',
        label: protocolLabel({
          customerName: `${c.firstName} ${c.lastName}`,
          sourceId: c.sourceId,
        }),
        problems: built.problems,
      },
    ]);
  }
  return bulk.submitBuilt(
    {
      protocolLocalId: null,
      request: built.request,
      ...(allow ? { allowDuplicateOf: allow } : {}),
    },
    'one order from scratch',
  );
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
    lines: orderLines(request, product),
  };
}
