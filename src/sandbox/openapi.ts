import { buildSchemaComponents } from './openapi-components';
import { ERROR_RESPONSES } from './openapi-operations';
import { rootPaths, webhooks } from './openapi-root-paths';
import { v1Paths } from './openapi-v1-paths';

/**
 * The OpenAPI 3.1 description of the sandbox, generated from the zod schemas the service parses
 * and answers with (src/shared/api, FaultConfig), so it cannot drift from them. Served at
 * GET /v1/openapi.json.
 */
function build(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Order Fulfillment API (sandbox)',
      version: '1.0.2',
      description:
        'The sandbox implementation of the Order Fulfillment API. Paths are relative to /v1; the token endpoint and the ' +
        'sandbox controls live at the origin and say so with their own `servers`. List and get order answer in the 1.0.1 ' +
        'order shape, create and cancel in 1.0.2.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/v1' }],
    security: [{ oauth2ClientCredentials: [] }],
    tags: [
      { name: 'orders' },
      { name: 'protocols' },
      { name: 'products' },
      { name: 'shipping' },
      { name: 'partner' },
      { name: 'auth' },
      { name: 'meta' },
      { name: 'webhooks' },
      {
        name: 'sandbox',
        description: 'Sandbox controls, outside /v1: not part of the production API',
      },
    ],
    paths: { ...v1Paths(), ...rootPaths() },
    webhooks: webhooks(),
    components: {
      schemas: buildSchemaComponents(),
      responses: ERROR_RESPONSES,
      securitySchemes: {
        oauth2ClientCredentials: {
          type: 'oauth2',
          description:
            'OAuth 2.0 client credentials; send the token as `Authorization: Bearer <access_token>`',
          flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
        },
      },
    },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

let document: Readonly<Record<string, unknown>> | undefined;

/** The document, built on first use and shared (frozen: structuredClone it before changing it). */
export function buildOpenApiDocument(): object {
  return (document ??= deepFreeze(build()));
}
