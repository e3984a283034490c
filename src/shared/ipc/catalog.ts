import { z } from 'zod';
import { ProductRead, ProductStatusRead, ShippingMethodInfo } from '../api';
import { PricingTermsView } from '../pricing-views';
import { None, read, type AreaChannels } from './channel';

export const ProductQuery = z.object({
  status: z.array(ProductStatusRead).max(50).optional(),
  search: z.string().max(200, 'at most 200 characters').optional(),
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
  /** 'orderable': what can be ordered first (the editor's picker); by name otherwise. */
  sort: z.enum(['name', 'orderable']).default('name'),
});
export type ProductQuery = z.input<typeof ProductQuery>;

export const ProductPage = z.object({
  products: z.array(ProductRead),
  total: z.int().min(0),
});
export type ProductPage = z.infer<typeof ProductPage>;

/** catalog.*: the mirrored products and shipping methods, the partner's pricing terms. */
export const catalogChannels = {
  'catalog.products': read(ProductQuery, ProductPage, ['catalog']),
  'catalog.product': read(z.object({ id: z.int().positive() }), ProductRead, ['catalog']),
  'catalog.shippingMethods': read(None, z.array(ShippingMethodInfo), ['catalog']),
  /** The partner's pricing terms every estimate uses (read at connect and by every full sync). */
  'catalog.pricing': read(None, PricingTermsView, ['settings']),
} as const satisfies AreaChannels<'catalog'>;
