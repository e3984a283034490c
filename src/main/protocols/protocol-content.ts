import type { ProtocolRead } from '@shared/api';
import type { ProtocolDraft } from './protocol-model';

/**
 * Comparisons of what the app sent (or would send) with a server protocol. The server echoes a
 * request back normalised: absent email, phone and line2 become null, and a pack item without
 * packDescription gets the catalog's. Those differences are not differences of content.
 */

const orNull = <T>(v: T | null | undefined): T | null => (v === undefined ? null : v);

function sameAdministration(
  a: ProtocolDraft['lineItems'][number]['administration'],
  b: ProtocolRead['lineItems'][number]['administration'],
): boolean {
  const x = orNull(a);
  const y = orNull(b);
  if (x === null || y === null) return x === y;
  return (
    x.morning === y.morning &&
    x.afternoon === y.afternoon &&
    x.evening === y.evening &&
    x.sleep === y.sleep
  );
}

/** The customer and every field of the request are what the server protocol holds. */
export function sameContent(draft: ProtocolDraft, server: ProtocolRead): boolean {
  const c = draft.customer;
  const s = server.customer;
  const sameCustomer =
    c.sourceId === s.sourceId &&
    c.firstName === s.firstName &&
    c.lastName === s.lastName &&
    orNull(c.email) === s.email &&
    orNull(c.phone) === s.phone &&
    c.address.line1 === s.address.line1 &&
    orNull(c.address.line2) === orNull(s.address.line2) &&
    c.address.city === s.address.city &&
    c.address.state === s.address.state &&
    c.address.zipCode === s.address.zipCode;
  if (!sameCustomer) return false;
  if (
    draft.daysSupply !== server.daysSupply ||
    draft.shippingMethod !== server.shippingMethod ||
    draft.orderType !== server.orderType ||
    draft.lineItems.length !== server.lineItems.length
  ) {
    return false;
  }
  return draft.lineItems.every((li, i) => {
    const si = server.lineItems[i]!;
    return (
      li.productId === si.productId &&
      li.quantity === si.quantity &&
      (li.packDescription === undefined || li.packDescription === si.packDescription) &&
      sameAdministration(li.administration, si.administration)
    );
  });
}
