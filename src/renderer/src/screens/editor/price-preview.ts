import {
  DAYS_SUPPLY_VALUES,
  SHIPPING_METHODS,
  type DaysSupply,
  type ProductRead,
  type ShippingMethod,
} from '@shared/api';
import { priceOrder, type Pricing } from '@shared/pricing';
import type { EditorFormInput } from './editor-form';

/**
 * The partner's discount as the editor knows it, from the terms main keeps: read (a value, or
 * null for none), or not known (being read, or never read on this connection).
 */
export type PreviewDiscount =
  { known: true; value: number | null } | { known: false; reading: boolean };

export interface Preview {
  pricing: Pricing;
  /** Per form line: its total, or null when it is left out (unknown product, no valid quantity). */
  lineTotals: (string | null)[];
  /** How many lines could not be priced. */
  unpriced: number;
}

const count = (v: string | undefined): number | null => {
  const t = (v ?? '').trim();
  return /^\d{1,7}$/.test(t) ? Number(t) : null;
};

/**
 * The price of the form as it stands, with the shared pricing function: what is typed so far,
 * leaving out the lines that cannot be priced yet (and saying how many).
 */
export function previewPricing(
  values: Pick<EditorFormInput, 'daysSupply' | 'shippingMethod' | 'lineItems'>,
  products: (productId: number) => ProductRead | undefined,
  discountValue: number | null,
): Preview {
  const days = Number(values.daysSupply);
  const daysSupply: DaysSupply = (DAYS_SUPPLY_VALUES as readonly number[]).includes(days)
    ? (days as DaysSupply)
    : 30;
  const shippingMethod: ShippingMethod = (SHIPPING_METHODS as readonly string[]).includes(
    values.shippingMethod,
  )
    ? values.shippingMethod
    : 'STANDARD';
  const priced: { index: number; quantity: number; price: string; external: boolean }[] = [];
  values.lineItems.forEach((line, index) => {
    const product = products(line.productId);
    if (!product) return;
    let quantity: number | null;
    if (line.external) quantity = count(line.quantity);
    else {
      const a = line.administration;
      const doses = [a.morning, a.afternoon, a.evening, a.sleep].map(count);
      quantity = doses.some((d) => d === null)
        ? null
        : doses.reduce<number>((s, d) => s + (d ?? 0), 0);
    }
    if (quantity === null || quantity < 1 || quantity > 1000) return;
    priced.push({ index, quantity, price: product.price, external: product.external });
  });
  const pricing = priceOrder({ daysSupply, shippingMethod, discountValue, lineItems: priced });
  const lineTotals: (string | null)[] = values.lineItems.map(() => null);
  priced.forEach((p, i) => {
    lineTotals[p.index] = pricing.lines[i]?.totalPrice ?? null;
  });
  return { pricing, lineTotals, unpriced: values.lineItems.length - priced.length };
}
