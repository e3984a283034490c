import type { AppOrder, CreateOrderRequest } from '@shared/api';

type Line = {
  productId: number;
  quantity: number;
  administration?: { morning: number; afternoon: number; evening: number; sleep: number } | null;
};

/** The line items as a multiset: product, quantity and doses of each, whatever their order. */
export const linesKey = (items: readonly Line[]): string =>
  items
    .map((li) => {
      const a = li.administration;
      const doses = a ? `${a.morning}/${a.afternoon}/${a.evening}/${a.sleep}` : '-';
      return `${li.productId}x${li.quantity}@${doses}`;
    })
    .sort()
    .join(',');

const orNull = <T>(v: T | null | undefined): T | null => v ?? null;

/** What a patient receives, of an order or of a request for one. */
export interface OrderContent {
  customer: { sourceId: string };
  daysSupply: number;
  lineItems: readonly Line[];
}

/**
 * The same patient (sourceId) and line items with their doses, whatever the days supply (a
 * line's quantity is per day): two orders with the same content while the first still supplies
 * the patient ship them twice (supply.ts).
 */
export function sameOrderContent(a: OrderContent, b: OrderContent): boolean {
  return (
    a.customer.sourceId === b.customer.sourceId && linesKey(a.lineItems) === linesKey(b.lineItems)
  );
}

/**
 * Every field a create sent is what the order holds (the content above, its days supply, the customer's name,
 * contact and address, the shipping method and the order type): the order may be what that
 * create made.
 */
export function orderHoldsRequest(order: AppOrder, request: CreateOrderRequest): boolean {
  const c = request.customer;
  const o = order.customer;
  return (
    sameOrderContent(order, request) &&
    order.daysSupply === request.daysSupply &&
    order.shippingMethod === request.shippingMethod &&
    order.orderType === request.orderType &&
    o.firstName === c.firstName &&
    o.lastName === c.lastName &&
    orNull(o.email) === orNull(c.email) &&
    orNull(o.phone) === orNull(c.phone) &&
    o.address.line1 === c.address.line1 &&
    orNull(o.address.line2) === orNull(c.address.line2) &&
    o.address.city === c.address.city &&
    o.address.state === c.address.state &&
    o.address.zipCode === c.address.zipCode
  );
}
