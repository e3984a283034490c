import { z } from 'zod';
import * as api from '../shared/api';
import { FaultConfig } from './http/faults';
import { AdvanceBody, ClientSecretRotation, ProductChange } from './routes/controls';
import { Delivery } from './store/deliveries';

/** A JSON Schema 2020-12 object, as OpenAPI 3.1 takes it. */
export type JsonSchema = Record<string, unknown>;

export const ref = (id: string): JsonSchema => ({ $ref: `#/components/schemas/${id}` });

type Named = Record<string, z.ZodType>;

/** Leaf schemas used by requests and responses alike. */
const SHARED: Named = {
  Money: api.Money,
  Timestamp: api.Timestamp,
  DaysSupply: api.DaysSupply,
  ShippingMethod: api.ShippingMethod,
  OrderType: api.OrderType,
  OrderTypeV101: api.OrderTypeV101,
  OrderStatus: api.OrderStatus,
  OrderStatusV101: api.OrderStatusV101,
  WebhookStatus: api.WebhookStatus,
  ProductStatus: api.ProductStatus,
};

/** What clients send: converted with io "input" (defaults make fields optional). */
const REQUESTS: Named = {
  CreateOrderRequest: api.CreateOrderRequest,
  CreateOrderRequestV101: api.CreateOrderRequestV101,
  CustomerRequest: api.CustomerRequest,
  CustomerRequestV101: api.CustomerRequestV101,
  AddressRequest: api.AddressRequest,
  AddressRequestV101: api.AddressRequestV101,
  // Also OrderLineItemRequest: the same schema object.
  LineItemRequest: api.LineItemRequest,
  AdministrationRequest: api.AdministrationRequest,
  OrderLineItemRequestV101: api.OrderLineItemRequestV101,
  ProtocolRequest: api.ProtocolRequest,
  PartnerSettingsPatch: api.PartnerSettingsPatch,
  TokenRequest: api.TokenRequest,
  FaultConfig,
  SandboxAdvanceRequest: AdvanceBody,
  SandboxProductChange: ProductChange,
  SandboxClientSecretRotation: ClientSecretRotation,
};

/** What the service answers: converted with io "output". */
const RESPONSES: Named = {
  Order: api.Order,
  OrderV101: api.OrderV101,
  OrderList: api.OrderList,
  Customer: api.Customer,
  CustomerV101: api.CustomerV101,
  Address: api.Address,
  AddressV101: api.AddressV101,
  LineItem: api.LineItem,
  Administration: api.Administration,
  LineItemV101: api.LineItemV101,
  FulfillmentInfo: api.FulfillmentInfo,
  FulfillmentInfoV101: api.FulfillmentInfoV101,
  Checkpoint: api.Checkpoint,
  Protocol: api.Protocol,
  ProtocolList: api.ProtocolList,
  ProtocolDeleted: api.ProtocolDeleted,
  Product: api.Product,
  ProductList: api.ProductList,
  SupplementFactsPanel: api.SupplementFactsPanel,
  ShippingMethodInfo: api.ShippingMethodInfo,
  ShippingMethodList: api.ShippingMethodList,
  PartnerSettings: api.PartnerSettings,
  WebhookSecret: api.WebhookSecret,
  WebhookPayload: api.WebhookPayload,
  ErrorDetail: api.ErrorDetail,
  ValidationIssue: api.ValidationIssue,
  ValidationErrorBody: api.ValidationErrorBody,
  TokenResponse: api.TokenResponse,
  OAuthErrorBody: api.OAuthErrorBody,
  // Sandbox controls: what GET/PUT/DELETE /_sandbox/faults and GET /_sandbox/webhook-deliveries return.
  FaultState: FaultConfig.extend({ injected: z.int().min(0) }),
  WebhookDelivery: Delivery,
  WebhookDeliveryList: z.object({ deliveries: z.array(Delivery) }),
  SandboxClientSecret: z.object({ clientId: z.string(), clientSecret: z.string() }),
};

type Io = 'input' | 'output';

/** zod's names for string checks that it also writes as a `pattern`; not JSON Schema formats. */
const ZOD_ONLY_FORMATS = new Set(['starts_with', 'ends_with', 'includes']);

/**
 * Drops zod's safe-integer bounds on plain integers (they say nothing a reader needs) and the
 * zod-only formats whose pattern (or patterns, under allOf) already says it all (validators
 * reject unknown formats).
 */
function tidy({ jsonSchema }: { jsonSchema: z.core.JSONSchema.BaseSchema }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  const patterned = jsonSchema.pattern !== undefined || jsonSchema.allOf !== undefined;
  if (jsonSchema.format && ZOD_ONLY_FORMATS.has(jsonSchema.format) && patterned)
    delete jsonSchema.format;
}

const options = (io: Io) =>
  ({
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: tidy,
    reused: 'inline',
  }) as const;

/**
 * Converts named schemas (plus the shared ones) through one registry, so that every use of a
 * named schema becomes a `$ref` into components.schemas. `rename` maps a registry id to the
 * component name it is published under.
 */
function convert(named: Named, io: Io, rename: (id: string) => string): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries({ ...SHARED, ...named })) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    ...options(io),
    uri: (id) => `#/components/schemas/${rename(id)}`,
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each entry comes as a standalone document; inside OpenAPI the component needs neither.
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
    out[rename(id)] = rest;
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * components.schemas: responses in their output shape, requests in their input shape. A shared
 * schema whose two shapes differ (objects are closed in output, open in input) is published
 * twice: `X` for responses and `XInput` for requests.
 */
export function buildSchemaComponents(): Record<string, JsonSchema> {
  for (const id of Object.keys(REQUESTS)) {
    if (id in RESPONSES || id in SHARED) throw new Error(`OpenAPI component ${id} is named twice`);
  }
  const output = convert(RESPONSES, 'output', (id) => id);
  const plainInput = convert(REQUESTS, 'input', (id) => id);
  const differ = new Set(Object.keys(SHARED).filter((id) => !same(plainInput[id], output[id])));
  const input = convert(REQUESTS, 'input', (id) => (differ.has(id) ? `${id}Input` : id));
  const merged = { ...output, ...input };
  return Object.fromEntries(
    Object.keys(merged)
      .sort()
      .map((k) => [k, merged[k]!]),
  );
}

export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

/**
 * Query parameters from a zod query schema. Each parameter is described by the value the service
 * reads (the output: `limit` is an integer 1..100 with default 10); where that value is made by a
 * transform (dates normalised to ISO strings), by the text it accepts (the input).
 */
export function queryParameters(
  schema: z.ZodObject,
  descriptions: Record<string, string> = {},
): QueryParameter[] {
  const input = z.toJSONSchema(schema, options('input'));
  const output = z.toJSONSchema(schema, options('output'));
  const required = new Set(input.required ?? []);
  return Object.keys(schema.shape).map((name) => {
    const out = output.properties?.[name];
    const chosen =
      out && typeof out === 'object' && Object.keys(out).length > 0
        ? out
        : input.properties?.[name];
    const description = descriptions[name];
    return {
      name,
      in: 'query',
      required: required.has(name),
      ...(description ? { description } : {}),
      schema: (chosen ?? {}) as JsonSchema,
    };
  });
}
