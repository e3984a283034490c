import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ListProductsQuery, SHIPPING_METHODS, type ShippingMethodInfo } from '@shared/api';
import { centsToMoney } from '@shared/money';
import { SHIPPING_PRICES } from '@shared/pricing';
import { badRequest, notFound } from '../errors';
import { parseQuery } from '../http/server';
import type { RouteContext } from './context';

const SHIPPING_DETAILS: Record<
  (typeof SHIPPING_METHODS)[number],
  Omit<ShippingMethodInfo, 'id' | 'price'>
> = {
  STANDARD: { name: 'Standard', description: 'USPS Priority, tracked', minDays: 3, maxDays: 5 },
  EXPRESS: { name: 'Express', description: 'UPS 2nd Day Air, tracked', minDays: 2, maxDays: 2 },
  OVERNIGHT: {
    name: 'Overnight',
    description: 'FedEx Priority Overnight, tracked',
    minDays: 1,
    maxDays: 1,
  },
};

/** A productId path parameter: digits only (a 400 otherwise), read as a number. */
const ProductIdParam = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

export function productIdParam(raw: string): number {
  const parsed = ProductIdParam.safeParse(raw);
  if (!parsed.success) throw badRequest('productId must be a whole number');
  return parsed.data;
}

export const SHIPPING_METHOD_LIST: ShippingMethodInfo[] = SHIPPING_METHODS.map((id) => ({
  id,
  ...SHIPPING_DETAILS[id],
  price: centsToMoney(SHIPPING_PRICES[id]),
}));

/** Products and shipping methods. */
export function registerCatalogRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.get('/v1/products', async (request) =>
    ctx.products.list(parseQuery(ListProductsQuery, request.query)),
  );

  app.get<{ Params: { productId: string } }>('/v1/products/:productId', async (request) => {
    const raw = request.params.productId;
    const product = ctx.products.get(productIdParam(raw));
    if (!product) throw notFound(`Product ${raw} not found`);
    return product;
  });

  app.get('/v1/shipping-methods', async () => ({ shippingMethods: SHIPPING_METHOD_LIST }));
}
