import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { OrderStatus, Price, ProductStatus, textLine, validateBody } from '@shared/api';
import { notFound, unprocessable } from '../errors';
import { newClientSecret } from '../store/partners';
import { FaultConfig } from '../http/faults';
import { orderV102 } from '../views';
import { productIdParam } from './catalog';
import type { RouteContext } from './context';

export const AdvanceBody = z
  .strictObject({ to: OrderStatus.exclude(['NEW', 'CANCELLED']).optional() })
  .default({});
export const ClientSecretRotation = z.strictObject({
  clientId: textLine(100).min(1),
  /** The new secret; a random one when absent. */
  clientSecret: textLine(200).min(1).optional(),
});
export const ProductChange = z.strictObject({
  status: ProductStatus.optional(),
  price: Price.optional(),
});

/** Sandbox controls, outside /v1 and behind the same bearer token. */
export function registerControlRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post<{ Params: { orderId: string } }>(
    '/_sandbox/orders/:orderId/advance',
    async (request) => {
      const body = validateBody(AdvanceBody, request.body ?? undefined);
      if (!body.ok) throw unprocessable(body.issues);
      return orderV102(
        ctx.orders.advance(request.partnerId, request.params.orderId, body.value.to),
      );
    },
  );

  // A rotated client secret: the old one and every token issued with it are refused at once.
  app.post('/_sandbox/rotate-client-secret', async (request) => {
    const body = validateBody(ClientSecretRotation, request.body ?? {});
    if (!body.ok) throw unprocessable(body.issues);
    const clientSecret = body.value.clientSecret ?? newClientSecret();
    if (!ctx.partners.rotateClientSecret(request.partnerId, body.value.clientId, clientSecret))
      throw notFound(`Client ${body.value.clientId} not found`);
    return { clientId: body.value.clientId, clientSecret };
  });

  app.get('/_sandbox/faults', async () => ctx.faults.current);

  app.put('/_sandbox/faults', async (request) => {
    const config = validateBody(FaultConfig, request.body ?? {});
    if (!config.ok) throw unprocessable(config.issues);
    ctx.faults.set(config.value);
    return ctx.faults.current;
  });

  app.delete('/_sandbox/faults', async () => {
    ctx.faults.clear();
    return ctx.faults.current;
  });

  app.get<{ Querystring: { orderId?: string } }>(
    '/_sandbox/webhook-deliveries',
    async (request) => ({
      deliveries: ctx.deliveries.list(request.partnerId, request.query.orderId),
    }),
  );

  app.patch<{ Params: { productId: string } }>('/_sandbox/products/:productId', async (request) => {
    const productId = productIdParam(request.params.productId);
    const change = validateBody(ProductChange, request.body);
    if (!change.ok) throw unprocessable(change.issues);
    const product = ctx.products.update(productId, change.value, ctx.clock.now());
    if (!product) throw notFound(`Product ${request.params.productId} not found`);
    return product;
  });
}
