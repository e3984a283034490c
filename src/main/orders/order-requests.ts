import { CreateOrderRequest, type ProductRead } from '@shared/api';
import { fieldName } from '@shared/field-names';
import type { ProtocolDraft, ProtocolOrderSource } from '../protocols/protocol-model';

/** One thing that stops a protocol from becoming an order, at a dotted path of the request. */
export interface ItemProblem {
  /** e.g. "daysSupply", "lineItems.0.packDescription"; "" for the protocol as a whole. */
  path: string;
  message: string;
}

/** A protocol that cannot be part of a batch, and why. */
export interface RejectedProtocol {
  protocolLocalId: string;
  /** "First Last (sourceId)", or null when the protocol is unknown. */
  label: string | null;
  problems: ItemProblem[];
}

/** Thrown by BulkSubmitter.submit when some protocols cannot be submitted: no batch is created. */
export class BatchRejectedError extends Error {
  override readonly name = 'BatchRejectedError';
  constructor(readonly rejected: readonly RejectedProtocol[]) {
    super(
      `${rejected.length} protocol(s) cannot be submitted: ` +
        rejected
          .map(
            (r) => `${r.label ?? r.protocolLocalId}: ${r.problems.map(describeProblem).join('; ')}`,
          )
          .join(' | '),
    );
  }
}

/** A problem in words, its field named as on screen: "Patient ID: required". */
export const describeProblem = (p: ItemProblem): string =>
  p.path ? `${fieldName(p.path)}: ${p.message}` : p.message;

const MISSING: Record<string, string> = {
  // The field's name goes before these ("Days supply: not set"), as the form shows them beside it.
  daysSupply: 'not set (30, 60 or 90)',
  shippingMethod: 'not set',
  orderType: 'not set',
};

/**
 * The create-order request a protocol's current draft stands for (local unsynced edits
 * included). A pack line without a packDescription takes the one of the protocol's server copy
 * or of the mirrored catalog. Problems instead when the draft is not a complete order.
 */
export function orderRequestFromProtocol(
  protocol: ProtocolOrderSource,
  product: (id: number) => ProductRead | null,
): { request: CreateOrderRequest } | { problems: ItemProblem[] } {
  if (protocol.deleted) {
    return { problems: [{ path: '', message: 'the protocol has been deleted' }] };
  }
  return orderRequestFromDraft(protocol.draft, product, protocol.serverLineItems);
}

/**
 * The create-order request a draft stands for: a saved protocol's (above), or one written from
 * scratch (no server copy). A pack line without a packDescription takes the server copy's, else
 * the mirrored catalog's. Problems instead when the draft is not a complete order.
 */
export function orderRequestFromDraft(
  draft: ProtocolDraft,
  product: (id: number) => ProductRead | null,
  serverLineItems: ProtocolOrderSource['serverLineItems'] = null,
): { request: CreateOrderRequest } | { problems: ItemProblem[] } {
  const problems: ItemProblem[] = [];
  const lineItems = draft.lineItems.map((li, i) => {
    if (li.packDescription !== undefined || li.administration == null) return li;
    const fromServer = serverLineItems?.find((s) => s.productId === li.productId)?.packDescription;
    const catalog = product(li.productId);
    const packDescription =
      fromServer ?? (catalog && !catalog.external ? catalog.packDescription : undefined);
    if (packDescription === undefined) {
      problems.push({
        path: `lineItems.${i}.packDescription`,
        message: `required for a pack product; product ${li.productId} is not in the local catalog (sync first)`,
      });
      return li;
    }
    return { ...li, packDescription };
  });
  const parsed = CreateOrderRequest.safeParse({ ...draft, lineItems });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      problems.push({ path, message: MISSING[path] ?? issue.message });
    }
  }
  if (problems.length > 0 || !parsed.success) return { problems };
  return { request: parsed.data };
}

/** A dotted problem path as field error path segments ("lineItems.0.quantity" → [lineItems, 0, quantity]). */
export const problemPath = (path: string): (string | number)[] =>
  path === '' ? [] : path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

/** Thrown by BulkSubmitter.retryItem when the item cannot be sent again; nothing changed. */
export class RetryRefusedError extends Error {
  override readonly name = 'RetryRefusedError';
  constructor(
    readonly reason: 'no-item' | 'not-rejected' | 'not-held' | 'no-protocol' | 'problems',
    message: string,
    readonly problems: readonly ItemProblem[] = [],
  ) {
    super(message);
  }
}

export const protocolLabel = (p: { customerName: string; sourceId: string }): string =>
  `${p.customerName} (${p.sourceId})`;
