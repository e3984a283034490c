import type { ShippingMethodInfo } from '@shared/api';
import type { PricingTermsView } from '@shared/pricing-views';
import type { QueryState } from '@renderer/lib/live-query';
import { useLiveQuery } from '@renderer/lib/use-query';

/** Catalog reads more than one screen needs (the editor, the catalog, the schedule). */

/** The partner's shipping methods, as the catalog mirror has them. */
export function useShippingMethods(): QueryState<ShippingMethodInfo[]> & { refresh(): void } {
  return useLiveQuery((read) => read('catalog.shippingMethods', {}), []);
}

/** The partner's pricing terms every estimate uses, as main keeps them. */
export function usePricing(): QueryState<PricingTermsView> & { refresh(): void } {
  return useLiveQuery((read) => read('catalog.pricing', {}), []);
}
