import { z } from 'zod';
import { PartnerSettings, Timestamp } from './api';

/**
 * The partner settings that prices depend on (`priceOrder` reads `discountValue`; `discount` is
 * how the partner words it). Main reads them at connect and at every full sync and keeps them
 * with the mirror; every estimate prices with this copy (docs/pricing.md).
 */
export const PartnerPricing = PartnerSettings.pick({ discount: true, discountValue: true });
export type PartnerPricing = z.infer<typeof PartnerPricing>;

/** The pricing terms as the window gets them (`catalog.pricing`): as last read, or never read. */
export const PricingTermsView = z.discriminatedUnion('known', [
  PartnerPricing.extend({
    known: z.literal(true),
    /** When they were last read from the server (local clock). */
    readAt: Timestamp,
  }),
  z.object({ known: z.literal(false) }),
]);
export type PricingTermsView = z.infer<typeof PricingTermsView>;

/** What an estimate says instead of a total while the partner's discount has never been read. */
export const TOTAL_UNKNOWN_DISCOUNT = "Total unknown until the partner's discount can be read.";

/** What an estimate says instead of a total while a product is missing from the local catalog. */
export const TOTAL_UNKNOWN_PRODUCT =
  'Total unknown until every product is in the catalog on this computer (sync first).';
