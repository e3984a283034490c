import type { FastifyInstance } from 'fastify';
import { ListProtocolsQuery } from '@shared/api';
import { parseQuery } from '../http/server';
import type { RouteContext } from './context';

type WithId = { Params: { protocolId: string } };

export function registerProtocolRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post('/v1/protocols', async (request, reply) =>
    reply.status(201).send(ctx.protocols.create(request.partnerId, request.body)),
  );

  app.get('/v1/protocols', async (request) =>
    ctx.protocols.list(request.partnerId, parseQuery(ListProtocolsQuery, request.query)),
  );

  app.get<WithId>('/v1/protocols/:protocolId', async (request) =>
    ctx.protocols.get(request.partnerId, request.params.protocolId),
  );

  app.put<WithId>('/v1/protocols/:protocolId', async (request) =>
    ctx.protocols.replace(request.partnerId, request.params.protocolId, request.body),
  );

  app.delete<WithId>('/v1/protocols/:protocolId', async (request) =>
    ctx.protocols.delete(request.partnerId, request.params.protocolId),
  );
}
