import type { FastifyInstance } from 'fastify';
import { ListOrdersQuery } from '@shared/api';
import { badRequest } from '../errors';
import { parseQuery } from '../http/server';
import type { ApiVersion } from '../orders-service';
import { orderV101, orderV102, orderV102Text } from '../views';
import type { RouteContext } from './context';

/** Header that selects the version of create order (docs/decisions.md). */
export const VERSION_HEADER = 'x-api-version';

function requestedVersion(value: string | string[] | undefined): ApiVersion {
  if (value === undefined || value === '1.0.2') return '1.0.2';
  if (value === '1.0.1') return '1.0.1';
  throw badRequest(`Unsupported ${VERSION_HEADER}: use 1.0.2 (default) or 1.0.1`);
}

type WithOrderId = { Params: { orderId: string } };

const JSON_TYPE = 'application/json; charset=utf-8';

export function registerOrderRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const packDescriptionOf = (productId: number) => ctx.products.get(productId)?.packDescription;

  app.post('/v1/orders', async (request, reply) => {
    const version = requestedVersion(request.headers[VERSION_HEADER]);
    const { order, json } = await ctx.orders.create(request.partnerId, request.body, version);
    if (version === '1.0.1') return reply.status(201).send(orderV101(order, packDescriptionOf));
    return reply.status(201).type(JSON_TYPE).send(orderV102Text(order, json));
  });

  app.get('/v1/orders', async (request) => {
    const query = parseQuery(ListOrdersQuery, request.query);
    const page = ctx.orders.list(request.partnerId, query);
    return { orders: page.orders.map((o) => orderV101(o, packDescriptionOf)), cursor: page.cursor };
  });

  app.get<WithOrderId>('/v1/orders/:orderId', async (request) =>
    orderV101(ctx.orders.get(request.partnerId, request.params.orderId), packDescriptionOf),
  );

  app.post<WithOrderId>('/v1/orders/:orderId/cancel', async (request) => {
    const order = ctx.orders.cancel(request.partnerId, request.params.orderId);
    return orderV102(order);
  });

  // An earlier operation index listed cancel with GET; answer it with a pointer instead of a 404.
  app.get<WithOrderId>('/v1/orders/:orderId/cancel', async (_request, reply) =>
    reply.status(405).header('allow', 'POST').send({ detail: 'Cancel an order with POST' }),
  );
}
