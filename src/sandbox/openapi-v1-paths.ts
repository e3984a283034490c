import { ListOrdersQuery, ListProductsQuery, ListProtocolsQuery } from '../shared/api';
import { queryParameters, ref } from './openapi-components';
import {
  body,
  json,
  ok,
  op,
  orderId,
  productId,
  protocolId,
  response,
  type PathItem,
} from './openapi-operations';
import { VERSION_HEADER } from './routes/orders';

const PAGE_DESCRIPTIONS = {
  limit: 'Page size',
  cursor: 'Opaque cursor from a previous page of the same list',
  direction:
    'Which page relative to the cursor: `next` (older for orders and protocols) or `previous`',
};

/** The operations under /v1 (the servers entry of the document). */
export function v1Paths(): Record<string, PathItem> {
  return {
    '/orders': {
      get: op(
        'listOrders',
        'orders',
        'List orders, newest first (1.0.1 order shape)',
        { 200: ok('A page of orders', ref('OrderList')) },
        [400],
        {
          parameters: queryParameters(ListOrdersQuery, {
            ...PAGE_DESCRIPTIONS,
            status: 'Only orders in this 1.0.1 status',
          }),
        },
      ),
      post: op(
        'createOrder',
        'orders',
        'Create an order',
        {
          201: ok(
            'The order as created: 1.0.2 shape, or 1.0.1 when `x-api-version: 1.0.1` was sent',
            {
              oneOf: [ref('Order'), ref('OrderV101')],
            },
          ),
        },
        [400, 422],
        {
          description:
            'The service prices the order and starts fulfillment. `x-api-version` selects the request and response shapes: ' +
            '1.0.2 (default; `zipCode`, `ONE_TIME`) or 1.0.1 (`zip`, `ONE-TIME`, packDescription required). Any other value is a 400.',
          parameters: [
            {
              name: VERSION_HEADER,
              in: 'header',
              required: false,
              description: 'Shape of the request and response of this operation',
              schema: { type: 'string', enum: ['1.0.2', '1.0.1'], default: '1.0.2' },
            },
          ],
          requestBody: body({
            description:
              'CreateOrderRequest (1.0.2, default) or CreateOrderRequestV101 (with `x-api-version: 1.0.1`)',
            oneOf: [ref('CreateOrderRequest'), ref('CreateOrderRequestV101')],
          }),
        },
      ),
    },
    '/orders/{orderId}': {
      get: op(
        'getOrder',
        'orders',
        'Get an order (1.0.1 order shape)',
        { 200: ok('The order', ref('OrderV101')) },
        [404],
        {
          parameters: [orderId],
        },
      ),
    },
    '/orders/{orderId}/cancel': {
      post: op(
        'cancelOrder',
        'orders',
        'Cancel an order that is in NEW',
        { 200: ok('The cancelled order (1.0.2 shape)', ref('Order')) },
        [404, 409],
        {
          parameters: [orderId],
          description: 'Only an order in NEW can be cancelled; any other state is a 409.',
        },
      ),
      get: {
        operationId: 'cancelOrderWithGet',
        tags: ['orders'],
        summary: 'Not supported: cancel with POST',
        description:
          'An earlier operation index listed cancel with GET. The sandbox answers 405 with `Allow: POST`.',
        deprecated: true,
        parameters: [orderId],
        responses: {
          405: {
            description: 'Use POST',
            headers: { Allow: { schema: { type: 'string', const: 'POST' } } },
            content: json(ref('ErrorDetail')),
          },
          401: response('Unauthorized'),
        },
      },
    },
    '/protocols': {
      get: op(
        'listProtocols',
        'protocols',
        'List protocols, newest first',
        { 200: ok('A page of protocols', ref('ProtocolList')) },
        [400],
        {
          parameters: queryParameters(ListProtocolsQuery, {
            ...PAGE_DESCRIPTIONS,
            search: 'Matches the customer name',
          }),
        },
      ),
      post: op(
        'createProtocol',
        'protocols',
        'Create a protocol',
        { 201: ok('The protocol as created', ref('Protocol')) },
        [400, 422],
        {
          requestBody: body(ref('ProtocolRequest')),
        },
      ),
    },
    '/protocols/{protocolId}': {
      get: op(
        'getProtocol',
        'protocols',
        'Get a protocol',
        { 200: ok('The protocol', ref('Protocol')) },
        [404],
        {
          parameters: [protocolId],
        },
      ),
      put: op(
        'replaceProtocol',
        'protocols',
        'Replace a protocol (full replacement)',
        { 200: ok('The protocol as replaced', ref('Protocol')) },
        [400, 404, 422],
        {
          parameters: [protocolId],
          description:
            'The body is validated before the protocol is looked up: a bad body is a 422 even for an unknown id.',
          requestBody: body(ref('ProtocolRequest')),
        },
      ),
      delete: op(
        'deleteProtocol',
        'protocols',
        'Delete a protocol',
        { 200: ok('Which protocol was deleted', ref('ProtocolDeleted')) },
        [404],
        {
          parameters: [protocolId],
        },
      ),
    },
    '/products': {
      get: op(
        'listProducts',
        'products',
        'List products, by id ascending',
        { 200: ok('A page of products', ref('ProductList')) },
        [400],
        {
          parameters: queryParameters(ListProductsQuery, {
            ...PAGE_DESCRIPTIONS,
            status: 'Only products in this status',
            updatedAfter: 'Only products updated at or after this date (midnight UTC) or date-time',
            updatedBefore: 'Only products updated before this date (midnight UTC) or date-time',
          }),
        },
      ),
    },
    '/products/{productId}': {
      get: op(
        'getProduct',
        'products',
        'Get a product',
        { 200: ok('The product', ref('Product')) },
        [400, 404],
        {
          parameters: [productId],
        },
      ),
    },
    '/shipping-methods': {
      get: op(
        'listShippingMethods',
        'shipping',
        'List the shipping methods',
        { 200: ok('Every shipping method', ref('ShippingMethodList')) },
        [],
      ),
    },
    '/partners/settings': {
      get: op(
        'getPartnerSettings',
        'partner',
        'Get the partner settings',
        { 200: ok('The settings', ref('PartnerSettings')) },
        [],
      ),
      patch: op(
        'updatePartnerSettings',
        'partner',
        'Update the partner settings',
        { 200: ok('The settings after the change', ref('PartnerSettings')) },
        [400, 422],
        {
          description:
            'Only the fields given change; null clears a field. Read-only and unknown fields are a 422. webhookUrl, website and logo must name a public host: a loopback, private, link-local (cloud metadata), unspecified, multicast or broadcast address in any spelling, localhost or a private-use name (*.internal, *.local) is a 422 at the field (a sandbox started with --allow-loopback-webhooks takes loopback webhookUrls).',
          requestBody: body(ref('PartnerSettingsPatch')),
        },
      ),
    },
    '/partners/settings/webhook-secret': {
      get: op(
        'getWebhookSecret',
        'partner',
        'Get the webhook secret',
        { 200: ok('The secret', ref('WebhookSecret')) },
        [404],
        {
          description: 'A secret exists only while a webhookUrl is set: 404 otherwise.',
        },
      ),
    },
    '/partners/settings/rotate-webhook-secret': {
      post: op(
        'rotateWebhookSecret',
        'partner',
        'Replace the webhook secret',
        { 200: ok('The new secret', ref('WebhookSecret')) },
        [404],
        {
          description: 'The old secret is invalid at once. 404 when no webhookUrl is set.',
        },
      ),
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['meta'],
        summary: 'This document',
        security: [],
        responses: { 200: ok('The OpenAPI 3.1 description of the sandbox', { type: 'object' }) },
      },
    },
  };
}
