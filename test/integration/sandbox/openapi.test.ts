import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORDER_STATUSES,
  ORDER_STATUSES_V101,
  PRODUCT_STATUSES,
  WEBHOOK_HEADERS,
} from '@shared/api';
import { operations, type OpenApiDocument, type OpenApiOperation } from '@test/support/openapi';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';

/**
 * The OpenAPI document served at GET /v1/openapi.json: a valid OpenAPI 3.1 document that lists
 * every operation the sandbox serves, with the statuses, parameters and schemas it really uses.
 */

/** Every route the sandbox registers under /v1, by the spec's endpoint tables plus the two extras. */
const V1_OPERATIONS = [
  'GET /orders',
  'POST /orders',
  'GET /orders/{orderId}',
  'POST /orders/{orderId}/cancel',
  'GET /protocols',
  'POST /protocols',
  'GET /protocols/{protocolId}',
  'PUT /protocols/{protocolId}',
  'DELETE /protocols/{protocolId}',
  'GET /products',
  'GET /products/{productId}',
  'GET /shipping-methods',
  'GET /partners/settings',
  'PATCH /partners/settings',
  'GET /partners/settings/webhook-secret',
  'POST /partners/settings/rotate-webhook-secret',
  // Registered by the sandbox beyond the spec: the 405 pointer for GET cancel, and this document.
  'GET /orders/{orderId}/cancel',
  'GET /openapi.json',
];

/** Operations outside /v1: the sandbox controls and the token endpoint. */
const ROOT_OPERATIONS = [
  'POST /_sandbox/orders/{orderId}/advance',
  'POST /_sandbox/rotate-client-secret',
  'GET /_sandbox/faults',
  'PUT /_sandbox/faults',
  'DELETE /_sandbox/faults',
  'GET /_sandbox/webhook-deliveries',
  'PATCH /_sandbox/products/{productId}',
  'POST /oauth2/token',
];

let sb: TestSandbox;
let doc: OpenApiDocument;

const op = (method: string, path: string): OpenApiOperation => {
  const found = doc.paths[path]?.[method.toLowerCase()];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};
const param = (method: string, path: string, name: string) =>
  op(method, path).parameters?.find((p) => p.name === name);
const statuses = (method: string, path: string) => Object.keys(op(method, path).responses).sort();

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await fetch(`${sb.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as OpenApiDocument;
});
afterAll(async () => {
  await sb.close();
});

describe('GET /v1/openapi.json', () => {
  it('is public and describes the sandbox as version 1.0.2 under /v1', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Order Fulfillment API (sandbox)', version: '1.0.2' });
    expect(doc.servers).toEqual([{ url: '/v1' }]);
    expect(doc.security).toEqual([{ oauth2ClientCredentials: [] }]);
    expect(doc.components.securitySchemes.oauth2ClientCredentials).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } },
    });
  });

  it('is a structurally valid OpenAPI 3.1 document whose references all resolve', async () => {
    const api = structuredClone(doc) as unknown as OpenAPIV3_1.Document;
    await expect(SwaggerParser.validate(api)).resolves.toMatchObject({ openapi: '3.1.0' });
    // The validator does reject a broken 3.1 document: a dangling reference and a missing info.
    const dangling = structuredClone(doc);
    dangling.paths['/orders']!.get!.responses['200'] = { $ref: '#/components/responses/Nothing' };
    await expect(
      SwaggerParser.validate(dangling as unknown as OpenAPIV3_1.Document),
    ).rejects.toThrow();
    const { info: _info, ...noInfo } = structuredClone(doc);
    await expect(SwaggerParser.validate(noInfo as unknown as OpenAPIV3_1.Document)).rejects.toThrow(
      /info/,
    );
  });
});

describe('operations', () => {
  it('lists exactly the /v1 operations the sandbox serves, and the root ones with their own server', () => {
    const all = operations(doc);
    const v1 = all.filter(([, , o]) => !o.servers).map(([m, p]) => `${m} ${p}`);
    const root = all.filter(([, , o]) => o.servers).map(([m, p]) => `${m} ${p}`);
    expect(v1.sort()).toEqual([...V1_OPERATIONS].sort());
    expect(root.sort()).toEqual([...ROOT_OPERATIONS].sort());
    for (const [, , o] of all.filter(([, , x]) => x.servers))
      expect(o.servers).toEqual([{ url: '/' }]);
  });

  it('gives every operation a unique operationId, a summary and a declared parameter per path template', () => {
    const all = operations(doc);
    const ids = all.map(([, , o]) => o.operationId);
    expect(new Set(ids).size).toBe(all.length);
    for (const [method, path, o] of all) {
      expect(o.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect((o as { summary?: string }).summary, `${method} ${path}`).toBeTruthy();
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (o.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect(declared, `${method} ${path}`).toEqual(templated);
    }
  });

  it('puts the sandbox controls under the "sandbox" tag and nothing else there', () => {
    const tagged = operations(doc)
      .filter(([, , o]) => o.tags?.includes('sandbox'))
      .map(([m, p]) => `${m} ${p}`);
    expect(tagged.sort()).toEqual(ROOT_OPERATIONS.filter((o) => o.includes('/_sandbox/')).sort());
  });

  it('needs the bearer token everywhere except the token endpoint and this document', () => {
    const open = operations(doc)
      .filter(([, , o]) => Array.isArray(o.security) && o.security.length === 0)
      .map(([m, p]) => `${m} ${p}`);
    expect(open.sort()).toEqual(['GET /openapi.json', 'POST /oauth2/token']);
    for (const [method, path, o] of operations(doc)) {
      if (o.security) continue;
      expect(o.responses['401'], `${method} ${path}`).toEqual({
        $ref: '#/components/responses/Unauthorized',
      });
    }
  });
});

describe('status codes', () => {
  it('creates with 201, answers the rest with 200, and lists the error statuses the sandbox uses', () => {
    expect(statuses('POST', '/orders')).toEqual(['201', '400', '401', '422', 'default']);
    expect(statuses('POST', '/protocols')).toEqual(['201', '400', '401', '422', 'default']);
    expect(statuses('POST', '/orders/{orderId}/cancel')).toEqual([
      '200',
      '401',
      '404',
      '409',
      'default',
    ]);
    expect(statuses('PUT', '/protocols/{protocolId}')).toEqual([
      '200',
      '400',
      '401',
      '404',
      '422',
      'default',
    ]);
    expect(statuses('DELETE', '/protocols/{protocolId}')).toEqual(['200', '401', '404', 'default']);
    expect(statuses('GET', '/orders')).toEqual(['200', '400', '401', 'default']);
    expect(statuses('GET', '/partners/settings/webhook-secret')).toEqual([
      '200',
      '401',
      '404',
      'default',
    ]);
    expect(statuses('PATCH', '/partners/settings')).toEqual([
      '200',
      '400',
      '401',
      '422',
      'default',
    ]);
    expect(statuses('GET', '/orders/{orderId}/cancel')).toEqual(['401', '405']);
    expect(op('GET', '/orders/{orderId}/cancel').deprecated).toBe(true);
    expect(doc.components.responses.ValidationFailed!.content!['application/json']!.schema).toEqual(
      {
        $ref: '#/components/schemas/ValidationErrorBody',
      },
    );
    expect(doc.components.responses.NotFound!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/ErrorDetail',
    });
  });

  it('answers create order in 1.0.2 or, with the header, 1.0.1, and takes either body', () => {
    const created = op('POST', '/orders').responses['201']!.content!['application/json']!.schema;
    expect(created).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Order' }, { $ref: '#/components/schemas/OrderV101' }],
    });
    const body = op('POST', '/orders').requestBody!;
    expect(body.required).toBe(true);
    expect(body.content['application/json']!.schema.oneOf).toEqual([
      { $ref: '#/components/schemas/CreateOrderRequest' },
      { $ref: '#/components/schemas/CreateOrderRequestV101' },
    ]);
    expect(param('POST', '/orders', 'x-api-version')).toMatchObject({
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['1.0.2', '1.0.1'], default: '1.0.2' },
    });
  });
});

describe('parameters', () => {
  it('bounds limit to 1..100 with default 10 on every list, with cursor and direction', () => {
    for (const path of ['/orders', '/protocols', '/products']) {
      expect(param('GET', path, 'limit'), path).toMatchObject({
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      });
      expect(param('GET', path, 'cursor')?.schema).toMatchObject({ type: 'string' });
      expect(param('GET', path, 'direction')?.schema).toMatchObject({
        enum: ['next', 'previous'],
        default: 'next',
      });
    }
  });

  it('filters orders by the 1.0.1 statuses, products by product status and update time, protocols by search', () => {
    expect(param('GET', '/orders', 'status')?.schema.enum).toEqual([...ORDER_STATUSES_V101]);
    expect(param('GET', '/products', 'status')?.schema.enum).toEqual([...PRODUCT_STATUSES]);
    expect(param('GET', '/protocols', 'search')?.schema).toMatchObject({
      type: 'string',
      maxLength: 200,
    });
    for (const name of ['updatedAfter', 'updatedBefore']) {
      const formats = (param('GET', '/products', name)?.schema.anyOf as { format: string }[]).map(
        (s) => s.format,
      );
      expect(formats, name).toEqual(['date', 'date-time']);
    }
    expect(param('GET', '/_sandbox/webhook-deliveries', 'orderId')).toMatchObject({
      in: 'query',
      required: false,
    });
  });
});

describe('components and webhooks', () => {
  it('publishes the zod schemas as components: Order is closed, statuses are the shared enums', () => {
    const { schemas } = doc.components;
    expect(schemas.OrderStatus).toEqual({ type: 'string', enum: [...ORDER_STATUSES] });
    expect(schemas.WebhookStatus!.enum).toEqual(ORDER_STATUSES.filter((s) => s !== 'DELIVERED'));
    expect(schemas.Order).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { $ref: '#/components/schemas/OrderStatus' },
        customer: { $ref: '#/components/schemas/Customer' },
      },
    });
    expect(schemas.AddressRequest).toMatchObject({
      properties: { zipCode: { pattern: '^\\d{5}$' }, line1: { maxLength: 100 } },
      required: expect.arrayContaining(['line1', 'city', 'state', 'zipCode']),
    });
    // Requests are open objects except where the service is strict.
    expect(schemas.PartnerSettingsPatch!.additionalProperties).toBe(false);
    expect(schemas.AdministrationRequest!.additionalProperties).toBeUndefined();
    expect(schemas.FaultConfig!.properties).toHaveProperty(
      'errorStatus.enum',
      [429, 500, 502, 503],
    );
    for (const [name, schema] of Object.entries(schemas)) {
      expect(schema, name).not.toHaveProperty('$schema');
      expect(schema, name).not.toHaveProperty('$id');
    }
  });

  it('describes the status webhook with its payload and the three Standard Webhooks headers', () => {
    const hook = doc.webhooks.orderStatus?.post;
    expect(hook).toBeDefined();
    expect(hook!.requestBody!.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/WebhookPayload',
    });
    const headers = hook!
      .parameters!.filter((p) => p.in === 'header')
      .map((p) => [p.name, p.required]);
    expect(headers).toEqual([
      [WEBHOOK_HEADERS.id, true],
      [WEBHOOK_HEADERS.timestamp, true],
      [WEBHOOK_HEADERS.signature, true],
    ]);
    expect(Object.keys(hook!.responses)).toEqual(['2XX']);
  });
});
