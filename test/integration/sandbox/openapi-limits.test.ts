import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOSE_MAX,
  EMAIL_MAX,
  HEX_COLOR_PATTERN,
  HTTP_URL_PATTERN,
  LINE_ITEMS_MAX,
  NAME_MAX,
  NO_CONTROL_CHARACTERS,
  PACK_DESCRIPTION_MAX,
  PHONE_MAX,
  PRICE_PATTERN,
  POSTAL_CODE_MAX,
  QUANTITY_MAX,
  SOURCE_ID_MAX,
  URL_MAX,
  ZIP_CODE_PATTERN,
} from '@shared/api';
import { HTTP_METHOD_PATTERN } from '@sandbox/http/faults';
import { DocumentValidator, explain, type OpenApiDocument } from '@test/support/openapi';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';

/**
 * The limits of what the service holds, as its OpenAPI document states them: every string a
 * client writes has a length bound and a pattern that refuses control characters, every count
 * and amount has a maximum, and the document's schemas refuse what the service refuses.
 */

type Schema = Record<string, any>;

/** The JSON bodies of every write operation. */
const WRITE_BODIES = [
  'CreateOrderRequest',
  'CreateOrderRequestV101',
  'ProtocolRequest',
  'PartnerSettingsPatch',
  'FaultConfig',
  'SandboxProductChange',
  'SandboxAdvanceRequest',
];

let sb: TestSandbox;
let doc: OpenApiDocument;
let validator: DocumentValidator;

beforeAll(async () => {
  sb = await startTestSandbox();
  doc = (await (await fetch(`${sb.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
  validator = new DocumentValidator(doc);
});
afterAll(async () => {
  await sb.close();
});

const component = (name: string): Schema => doc.components.schemas[name]!;
const patternsOf = (s: Schema): string[] => [
  ...(s.pattern ? [s.pattern as string] : []),
  ...((s.allOf ?? []) as Schema[]).flatMap((p) => (p.pattern ? [p.pattern as string] : [])),
];

/** Every string schema (not an enum) reachable from a component, by its path. */
function strings(schema: Schema, path: string, out: [string, Schema][] = []): [string, Schema][] {
  if (schema.$ref) return strings(component(schema.$ref.split('/').pop()), path, out);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    strings(branch as Schema, path, out);
  if (schema.type === 'string' && !schema.enum) out.push([path, schema]);
  for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
    strings(child, `${path}.${key}`, out);
  if (schema.items) strings(schema.items as Schema, `${path}[]`, out);
  return out;
}

/** Patterns that admit strings of a few characters only, so need no maxLength. */
const SHORT_BY_PATTERN = new Set([
  ZIP_CODE_PATTERN.source,
  HEX_COLOR_PATTERN.source,
  HTTP_METHOD_PATTERN.source,
  PRICE_PATTERN.source,
]);

describe('the document states the limits', () => {
  it('every string of a write body has a length bound and refuses control characters', () => {
    const all = WRITE_BODIES.flatMap((name) => strings(component(name), name));
    expect(all.length).toBeGreaterThan(40);
    for (const [path, schema] of all) {
      const patterns = patternsOf(schema);
      expect(patterns.length, path).toBeGreaterThan(0);
      if (!patterns.some((p) => SHORT_BY_PATTERN.has(p)))
        expect(schema.maxLength, path).toBeTypeOf('number');
      for (const bad of ['a\u0000', 'a\tb', 'a\r\nb', 'a\u007f', 'a\u0085']) {
        const admitted = patterns.every((p) => new RegExp(p, 'u').test(bad));
        expect(admitted, `${path} admits ${JSON.stringify(bad)}`).toBe(false);
      }
    }
  });

  it('states the bounds of quantities, doses, line items and the customer', () => {
    const item = component('LineItemRequest').properties;
    expect(item.quantity).toMatchObject({ type: 'integer', minimum: 1, maximum: QUANTITY_MAX });
    expect(item.packDescription).toMatchObject({ maxLength: PACK_DESCRIPTION_MAX });
    for (const dose of Object.values(component('AdministrationRequest').properties))
      expect(dose).toMatchObject({ type: 'integer', minimum: 0, maximum: DOSE_MAX });
    for (const body of ['CreateOrderRequest', 'CreateOrderRequestV101', 'ProtocolRequest'])
      expect(component(body).properties.lineItems, body).toMatchObject({
        minItems: 1,
        maxItems: LINE_ITEMS_MAX,
      });
    const customer = component('CustomerRequest').properties;
    expect(customer.sourceId).toMatchObject({
      maxLength: SOURCE_ID_MAX,
      pattern: NO_CONTROL_CHARACTERS.source,
    });
    expect(customer.firstName).toMatchObject({ maxLength: NAME_MAX });
    expect(customer.lastName).toMatchObject({ maxLength: NAME_MAX });
    expect(customer.email.anyOf[0]).toMatchObject({ maxLength: EMAIL_MAX, format: 'email' });
    expect(customer.phone.anyOf[0]).toMatchObject({ maxLength: PHONE_MAX });
    expect(component('AddressRequestV101').properties.zip).toMatchObject({
      maxLength: POSTAL_CODE_MAX,
    });
  });

  it('states clean http(s) URLs for webhookUrl, website and logo, and bounded prices', () => {
    const patch = component('PartnerSettingsPatch').properties;
    for (const field of ['webhookUrl', 'website', 'logo'])
      expect(patch[field].anyOf[0], field).toEqual({
        type: 'string',
        format: 'uri',
        pattern: HTTP_URL_PATTERN.source,
        maxLength: URL_MAX,
      });
    const price = new RegExp(component('SandboxProductChange').properties.price.pattern, 'u');
    for (const ok of ['0.00', '0.08', '9999.99', '10000.00']) expect(price.test(ok), ok).toBe(true);
    for (const bad of ['-502.05', '-0.01', '10000.01', '99999.00', '1e5', '1.5', '007.00', ''])
      expect(price.test(bad), bad).toBe(false);
  });
});

describe('the document refuses what the service refuses', () => {
  type Json = Record<string, any>;
  const order = (edit: (b: Json) => void): Json => {
    const body = structuredClone(validOrderBody()) as Json;
    edit(body);
    return body;
  };
  const bigLine = {
    productId: 1001,
    quantity: 1e15,
    packDescription: '1 capsule',
    administration: { morning: 25e13, afternoon: 25e13, evening: 25e13, sleep: 25e13 },
  };

  it.each([
    ['quantity 1e15 with doses that sum to it', order((b) => (b.lineItems = [bigLine]))],
    ['quantity 1001', order((b) => (b.lineItems[1].quantity = QUANTITY_MAX + 1))],
    [
      `${LINE_ITEMS_MAX + 1} line items`,
      order((b) => (b.lineItems = Array(LINE_ITEMS_MAX + 1).fill(b.lineItems[1]))),
    ],
    ['a NUL in firstName', order((b) => (b.customer.firstName = 'Ada\u0000'))],
    ['a line break in line2', order((b) => (b.customer.address.line2 = 'Suite 2\nBack door'))],
    ['a 100 KB sourceId', order((b) => (b.customer.sourceId = 'x'.repeat(100_000)))],
  ])('create order with %s: the schema and the service refuse it', async (_name, body) => {
    const schema = validator.component('CreateOrderRequest');
    expect(schema(body)).toBe(false);
    const res = await sb.api('POST', '/v1/orders', body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(422);
  });

  it('create order at every limit: the schema and the service accept it', async () => {
    const body = order((b) => {
      b.customer.sourceId = 's'.repeat(SOURCE_ID_MAX);
      b.customer.firstName = 'f'.repeat(NAME_MAX);
      b.customer.phone = '5'.repeat(PHONE_MAX);
      b.lineItems[0].quantity = QUANTITY_MAX;
      b.lineItems[0].packDescription = 'p'.repeat(PACK_DESCRIPTION_MAX);
      b.lineItems[0].administration = { morning: DOSE_MAX, afternoon: 0, evening: 0, sleep: 0 };
      b.lineItems[1].quantity = QUANTITY_MAX;
    });
    const schema = validator.component('CreateOrderRequest');
    expect(schema(body), explain(schema)).toBe(true);
    const res = await sb.api('POST', '/v1/orders', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it.each([
    [
      'PATCH',
      '/v1/partners/settings',
      'PartnerSettingsPatch',
      { webhookUrl: 'https://a.example/\r\nx' },
    ],
    ['PATCH', '/v1/partners/settings', 'PartnerSettingsPatch', { phone: '503\u0000555' }],
    ['PATCH', '/_sandbox/products/1001', 'SandboxProductChange', { price: '-502.05' }],
    ['PATCH', '/_sandbox/products/1001', 'SandboxProductChange', { price: '10000.01' }],
    ['PUT', '/_sandbox/faults', 'FaultConfig', { match: { path: '/v1/\u0000' } }],
  ])('%s %s with %j: the schema and the service refuse it', async (method, path, name, body) => {
    expect(validator.component(name)(body)).toBe(false);
    const res = await sb.api(method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
  });
});
