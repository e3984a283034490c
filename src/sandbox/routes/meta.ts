import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi';

/** Public routes: the service index, the health check (the benchmark's bare baseline) and the OpenAPI document. */
export function registerMetaRoutes(app: FastifyInstance): void {
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));

  app.get('/', { config: { public: true } }, async () => ({
    service: 'Order Fulfillment API sandbox',
    baseUrl: '/v1',
    tokenUrl: '/oauth2/token',
    openapi: '/v1/openapi.json',
    controls: '/_sandbox',
  }));

  app.get('/v1/openapi.json', { config: { public: true } }, async () => buildOpenApiDocument());
}
