import { z } from 'zod';
import {
  Direction,
  OrderStatusV101,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PAGE_LIMIT_MIN,
  ProductStatus,
} from './common';

/** `limit` arrives as query text: digits only, 1 to 100, default 10. */
const Limit = z
  .string()
  .regex(/^\d+$/, 'limit must be a whole number')
  .transform(Number)
  .pipe(
    z
      .int()
      .min(PAGE_LIMIT_MIN, `limit must be at least ${PAGE_LIMIT_MIN}`)
      .max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`),
  )
  .default(PAGE_LIMIT_DEFAULT);

const pageQuery = {
  limit: Limit,
  cursor: z.string().min(1, 'cursor must not be empty').optional(),
  direction: Direction.default('next'),
};

export const ListOrdersQuery = z.object({ ...pageQuery, status: OrderStatusV101.optional() });
export type ListOrdersQuery = z.infer<typeof ListOrdersQuery>;

export const ListProtocolsQuery = z.object({
  ...pageQuery,
  search: z.string().max(200, 'search must be at most 200 characters').optional(),
});
export type ListProtocolsQuery = z.infer<typeof ListProtocolsQuery>;

/** `updatedAfter` / `updatedBefore`: a date (YYYY-MM-DD, midnight UTC) or a date-time. */
const DateOrDateTime = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: 'a date (YYYY-MM-DD) or an ISO 8601 date-time',
  })
  .transform((s) => new Date(s.length === 10 ? `${s}T00:00:00Z` : s).toISOString());

export const ListProductsQuery = z.object({
  ...pageQuery,
  status: ProductStatus.optional(),
  updatedAfter: DateOrDateTime.optional(),
  updatedBefore: DateOrDateTime.optional(),
});
export type ListProductsQuery = z.infer<typeof ListProductsQuery>;
