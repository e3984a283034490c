import type { DaysSupply, ShippingMethod } from './api/common';
import { centsToMoney, moneyToCents, roundHalfUp, type Cents } from './money';

/**
 * The one pricing function: the sandbox prices orders and protocols with it, the app previews
 * with it. Every rule below that the spec leaves open is written down in docs/pricing.md.
 */

/** Handling fee per external item (spec: 5 currency units). */
export const EXTERNAL_HANDLING_FEE: Cents = 500;

/** Extra discount for a days-supply above 30 (the "volume discount limits"), in basis points. */
export const VOLUME_DISCOUNT_BPS: Record<DaysSupply, number> = { 30: 0, 60: 500, 90: 1000 };

/** Flat shipping price per method. */
export const SHIPPING_PRICES: Record<ShippingMethod, Cents> = {
  STANDARD: 795,
  EXPRESS: 1995,
  OVERNIGHT: 3495,
};

/** An external product's price is for one unit that lasts 30 days. */
export const EXTERNAL_UNIT_DAYS = 30;

export interface PricingLineInput {
  /** Pills a day for a pack product; units per 30 days for an external product. */
  quantity: number;
  /** Catalog price: per pill for a pack product, per unit for an external product. */
  price: string;
  external: boolean;
}

export interface PricingInput {
  daysSupply: DaysSupply;
  shippingMethod: ShippingMethod;
  /** The partner's discount, 0.0 to 1.0 (partner settings discountValue); null is none. */
  discountValue: number | null;
  lineItems: readonly PricingLineInput[];
}

export interface PricedLine {
  price: string;
  discountedPrice: string;
  totalPrice: string;
}

export interface Pricing {
  discount: string;
  lines: PricedLine[];
  subtotalPrice: string;
  totalDiscount: string;
  totalFees: string;
  totalVolumeDiscount: string;
  totalShipping: string;
  totalPrice: string;
}

export function discountBps(discountValue: number | null): number {
  if (discountValue == null || !Number.isFinite(discountValue)) return 0;
  return Math.min(10_000, Math.max(0, Math.round(discountValue * 10_000)));
}

/** "15%", "12.5%": the partner discount as text with a percent sign. */
export function formatDiscount(discountValue: number | null): string {
  const bps = discountBps(discountValue);
  return `${Number((bps / 100).toFixed(2))}%`;
}

/** How many of a line's units are billed: pills for a pack line, 30-day units for an external one. */
export function billedUnits(
  line: Pick<PricingLineInput, 'quantity' | 'external'>,
  daysSupply: DaysSupply,
): number {
  return line.external
    ? (line.quantity * daysSupply) / EXTERNAL_UNIT_DAYS
    : line.quantity * daysSupply;
}

export function priceOrder(input: PricingInput): Pricing {
  const bps = discountBps(input.discountValue);
  let listTotal = 0;
  let itemsTotal = 0;
  let fees = 0;
  const lines = input.lineItems.map((line) => {
    const unit = moneyToCents(line.price);
    const discounted = roundHalfUp(unit * (10_000 - bps), 10_000);
    const units = billedUnits(line, input.daysSupply);
    const total = discounted * units;
    listTotal += unit * units;
    itemsTotal += total;
    if (line.external) fees += EXTERNAL_HANDLING_FEE * units;
    return {
      price: centsToMoney(unit),
      discountedPrice: centsToMoney(discounted),
      totalPrice: centsToMoney(total),
    };
  });
  const volume = roundHalfUp(itemsTotal * VOLUME_DISCOUNT_BPS[input.daysSupply], 10_000);
  const subtotal = itemsTotal - volume + fees;
  const shipping = SHIPPING_PRICES[input.shippingMethod];
  return {
    discount: formatDiscount(input.discountValue),
    lines,
    subtotalPrice: centsToMoney(subtotal),
    totalDiscount: centsToMoney(listTotal - itemsTotal + volume),
    totalFees: centsToMoney(fees),
    totalVolumeDiscount: centsToMoney(volume),
    totalShipping: centsToMoney(shipping),
    totalPrice: centsToMoney(subtotal + shipping),
  };
}
