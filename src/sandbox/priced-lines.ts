import type { DaysSupply, LineItem, LineItemRequest, Product, ShippingMethod } from '../shared/api';
import { priceOrder, type Pricing } from '../shared/pricing';

export interface PricedContent {
  pricing: Pricing;
  lineItems: LineItem[];
}

/**
 * Prices request line items against the catalog (already checked to exist) with the shared
 * pricing function and builds the response line items. `packDescriptionFor` decides per item
 * what the response shows, since orders and protocols differ there.
 */
export function priceLineItems(
  input: {
    daysSupply: DaysSupply;
    shippingMethod: ShippingMethod;
    lineItems: readonly LineItemRequest[];
  },
  product: (id: number) => Product,
  discountValue: number | null,
  packDescriptionFor: (item: LineItemRequest, product: Product) => string | undefined,
): PricedContent {
  const products = input.lineItems.map((li) => product(li.productId));
  const pricing = priceOrder({
    daysSupply: input.daysSupply,
    shippingMethod: input.shippingMethod,
    discountValue,
    lineItems: input.lineItems.map((li, i) => ({
      quantity: li.quantity,
      price: products[i]!.price,
      external: products[i]!.external,
    })),
  });
  const lineItems = input.lineItems.map((li, i): LineItem => {
    const p = products[i]!;
    const packDescription = packDescriptionFor(li, p);
    return {
      productId: p.id,
      name: p.name,
      quantity: li.quantity,
      ...(packDescription === undefined ? {} : { packDescription }),
      ...pricing.lines[i]!,
      external: p.external,
      imageUrl: p.productImage,
      administration: p.external ? null : (li.administration ?? null),
    };
  });
  return { pricing, lineItems };
}

export const pricingTotals = (pricing: Pricing) => ({
  subtotalPrice: pricing.subtotalPrice,
  totalDiscount: pricing.totalDiscount,
  totalFees: pricing.totalFees,
  totalVolumeDiscount: pricing.totalVolumeDiscount,
  totalShipping: pricing.totalShipping,
  totalPrice: pricing.totalPrice,
});
