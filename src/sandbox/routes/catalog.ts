import type { FastifyInstance } from 'fastify';
import { ListProductsQuery, SHIPPING_METHODS, type ShippingMethodInfo } from '../../shared/api';
import { centsToMoney } from '../../shared/money';
import { SHIPPING_PRICES } from '../../shared/pricing';
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
    if (!/^\d{1,15}$/.test(raw)) throw badRequest('productId must be a whole number');
    const product = ctx.products.get(Number(raw));
    if (!product) throw notFound(`Product ${raw} not found`);
    return product;
  });

  app.get('/v1/shipping-methods', async () => ({ shippingMethods: SHIPPING_METHOD_LIST }));
}
