import {
  ProtocolRequest,
  checkLineItemsAgainstCatalog,
  validateBody,
  type ListProtocolsQuery,
  type Protocol,
} from '../shared/api';
import { isoAt, type Clock } from './clock';
import { notFound, unprocessable } from './errors';
import { assertCatalogRules, customerFromRequest } from './orders-service';
import { priceLineItems, pricingTotals } from './priced-lines';
import { newId } from './store/ids';
import type { PartnerStore } from './store/partners';
import type { ProductStore } from './store/products';
import type { ProtocolStore } from './store/protocols';

export interface ProtocolServiceDeps {
  clock: Clock;
  protocols: ProtocolStore;
  products: ProductStore;
  partners: PartnerStore;
}

/** Protocols: order templates, validated and priced like orders, replaced whole by PUT. */
export class ProtocolService {
  constructor(private readonly deps: ProtocolServiceDeps) {}

  create(partnerId: string, body: unknown): Protocol {
    const now = this.deps.clock.now();
    const protocol = this.build(partnerId, body, newId('prt', now), isoAt(now), isoAt(now));
    this.deps.protocols.insert(partnerId, protocol);
    return protocol;
  }

  get(partnerId: string, id: string): Protocol {
    const protocol = this.deps.protocols.get(partnerId, id);
    if (!protocol) throw notFound(`Protocol ${id} not found`);
    return protocol;
  }

  /** PUT: the body is validated before existence is checked, so a bad body is 422 even for an unknown id. */
  replace(partnerId: string, id: string, body: unknown): Protocol {
    const existing = this.deps.protocols.get(partnerId, id);
    const now = this.deps.clock.now();
    const createdAt = existing?.createdAt ?? isoAt(now);
    const updatedMs = existing ? Math.max(now, Date.parse(existing.updatedAt) + 1) : now;
    const protocol = this.build(partnerId, body, id, createdAt, isoAt(updatedMs));
    if (!existing || !this.deps.protocols.replace(partnerId, protocol))
      throw notFound(`Protocol ${id} not found`);
    return protocol;
  }

  delete(partnerId: string, id: string): { protocolId: string; message: string } {
    if (!this.deps.protocols.delete(partnerId, id)) throw notFound(`Protocol ${id} not found`);
    return { protocolId: id, message: `Protocol ${id} deleted` };
  }

  list(partnerId: string, query: ListProtocolsQuery) {
    return this.deps.protocols.list(partnerId, query);
  }

  private build(
    partnerId: string,
    body: unknown,
    id: string,
    createdAt: string,
    updatedAt: string,
  ): Protocol {
    const parsed = validateBody(ProtocolRequest, body);
    if (!parsed.ok) throw unprocessable(parsed.issues);
    const request = parsed.value;
    const { products, partners } = this.deps;
    assertCatalogRules(
      checkLineItemsAgainstCatalog(request.lineItems, (pid) => products.get(pid), {
        packDescriptionRequiredForPack: false,
      }),
    );
    const { pricing, lineItems } = priceLineItems(
      request,
      (pid) => products.get(pid)!,
      partners.settings(partnerId).discountValue,
      (li, p) => li.packDescription ?? (p.external ? undefined : p.packDescription),
    );
    return {
      id,
      customer: customerFromRequest(request.customer),
      daysSupply: request.daysSupply,
      orderType: request.orderType,
      shippingMethod: request.shippingMethod,
      discount: pricing.discount,
      lineItems,
      ...pricingTotals(pricing),
      createdAt,
      updatedAt,
    };
  }
}
