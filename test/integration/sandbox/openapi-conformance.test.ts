import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DocumentValidator,
  explain,
  operations,
  type OpenApiDocument,
} from '@test/support/openapi';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';

/**
 * Real traffic against the served document: the sandbox's answers validate against the schemas
 * the document gives for their status (JSON Schema 2020-12, ajv), and every documented operation
 * exists and answers with a status the document lists.
 */

let sb: TestSandbox;
let doc: OpenApiDocument;
let validator: DocumentValidator;

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await fetch(`${sb.baseUrl}/openapi.json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as OpenApiDocument;
  validator = new DocumentValidator(doc);
});
afterAll(async () => {
  await sb.close();
});

function v101Body() {
  const body = validOrderBody({ orderType: 'ONE-TIME' });
  const { zipCode, ...address } = body.customer.address;
  return {
    ...body,
    customer: { ...body.customer, address: { ...address, zip: zipCode } },
    lineItems: [body.lineItems[0], { ...body.lineItems[1], packDescription: '1 scoop' }],
  };
}

describe('create order against the document', () => {
  it('a real 1.0.2 create-order response validates against the 201 schema and Order, and a changed one does not', async () => {
    const res = await sb.api('POST', '/v1/orders', validOrderBody());
    expect(res.status).toBe(201);
    const created = validator.response('POST', '/orders', '201');
    expect(created(res.body), explain(created)).toBe(true);
    const order = validator.component('Order');
    expect(order(res.body), explain(order)).toBe(true);
    expect(validator.component('OrderV101')(res.body)).toBe(false);

    expect(created({ ...res.body, status: 'CREATED' })).toBe(false);
    expect(created({ ...res.body, totalPrice: 12.5 })).toBe(false);
    expect(order({ ...res.body, unexpected: true })).toBe(false);
    const { customer: _customer, ...noCustomer } = res.body as Record<string, unknown>;
    expect(created(noCustomer)).toBe(false);
  });

  it('a real 1.0.1 create-order response validates against the 201 schema as OrderV101', async () => {
    const body = v101Body();
    expect(validator.component('CreateOrderRequestV101')(body)).toBe(true);
    expect(validator.component('CreateOrderRequest')(body)).toBe(false);
    const res = await sb.api('POST', '/v1/orders', body, { 'x-api-version': '1.0.1' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = validator.response('POST', '/orders', '201');
    expect(created(res.body), explain(created)).toBe(true);
    expect(validator.component('OrderV101')(res.body)).toBe(true);
    expect(validator.component('Order')(res.body)).toBe(false);
  });

  it('the request bodies the sandbox accepts validate against the request schemas', () => {
    const request = validator.component('CreateOrderRequest');
    expect(request(validOrderBody()), explain(request)).toBe(true);
    expect(request(validOrderBody({ daysSupply: 45 }))).toBe(false);
    expect(validator.component('ProtocolRequest')(validOrderBody())).toBe(true);
  });

  it('422 and 404 bodies validate against ValidationErrorBody and ErrorDetail', async () => {
    const invalid = await sb.api('POST', '/v1/orders', validOrderBody({ daysSupply: 45 }));
    expect(invalid.status).toBe(422);
    const v422 = validator.response('POST', '/orders', '422');
    expect(v422(invalid.body), explain(v422)).toBe(true);
    expect(v422({ detail: 'a string is not a location list' })).toBe(false);

    const missing = await sb.api('GET', '/v1/orders/ord_nope');
    expect(missing.status).toBe(404);
    const v404 = validator.response('GET', '/orders/{orderId}', '404');
    expect(v404(missing.body), explain(v404)).toBe(true);
  });

  it('list, get and cancel of real orders validate against their 200 schemas', async () => {
    const created = await sb.api('POST', '/v1/orders', validOrderBody());
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const checks: [string, string, string, string][] = [
      ['GET', '/v1/orders?limit=10', 'GET', '/orders'],
      ['GET', `/v1/orders/${id}`, 'GET', '/orders/{orderId}'],
      ['POST', `/v1/orders/${id}/cancel`, 'POST', '/orders/{orderId}/cancel'],
    ];
    for (const [method, url, docMethod, docPath] of checks) {
      const res = await sb.api(method, url);
      expect(res.status, url).toBe(200);
      const validate = validator.response(docMethod, docPath, '200');
      expect(validate(res.body), `${url} ${explain(validate)}`).toBe(true);
    }
  });
});

describe('every documented operation', () => {
  it('exists, and answers with a documented status and a body valid for it', async () => {
    const values: Record<string, string> = {
      orderId: 'ord_missing',
      protocolId: 'prt_missing',
      productId: '999999',
    };
    for (const [method, path, op] of operations(doc)) {
      const url =
        (op.servers ? '' : '/v1') + path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name]!);
      const res = await sb.api(method, url, op.requestBody ? {} : undefined);
      const label = `${method} ${url} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
      expect(String((res.body as { detail?: unknown })?.detail ?? ''), label).not.toMatch(
        /^No such endpoint/,
      );
      // No faults are injected here, so the status must be listed itself, not left to `default`.
      expect(Object.keys(op.responses), label).toContain(String(res.status));
      const validate = validator.response(method, path, String(res.status));
      expect(validate(res.body), `${label} ${explain(validate)}`).toBe(true);
    }
  });
});
