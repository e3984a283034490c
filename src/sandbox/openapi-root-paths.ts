import { WEBHOOK_HEADERS } from '../shared/api';
import { ref } from './openapi-components';
import {
  body,
  ok,
  op,
  orderId,
  productId,
  type ErrorCode,
  type Operation,
  type PathItem,
} from './openapi-operations';

/** Operations outside /v1: they carry their own server (the origin). */
const ROOT_SERVER = [{ url: '/' }];

export function rootPaths(): Record<string, PathItem> {
  const control = (
    operationId: string,
    summary: string,
    responses: Record<string, unknown>,
    errors: ErrorCode[],
    extra: Operation = {},
  ) => op(operationId, 'sandbox', summary, responses, errors, { servers: ROOT_SERVER, ...extra });
  const faultState = {
    200: ok(
      'The fault configuration in force and how many faults it has injected',
      ref('FaultState'),
    ),
  };
  return {
    '/oauth2/token': {
      post: {
        operationId: 'issueToken',
        tags: ['auth'],
        summary: 'Issue an access token (OAuth 2.0 client credentials)',
        description:
          'Client credentials in the form body or with HTTP Basic authentication (RFC 6749 section 2.3.1).',
        servers: ROOT_SERVER,
        security: [],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: ref('TokenRequest') } },
        },
        responses: {
          200: ok('An access token', ref('TokenResponse')),
          400: ok('invalid_request or unsupported_grant_type', ref('OAuthErrorBody')),
          401: ok('invalid_client', ref('OAuthErrorBody')),
        },
      },
    },
    '/_sandbox/orders/{orderId}/advance': {
      post: control(
        'sandboxAdvanceOrder',
        'Move an order along the fulfillment chain',
        { 200: ok('The order after the move (1.0.2 shape)', ref('Order')) },
        [400, 404, 409, 422],
        {
          description:
            'One step, or every step up to `to`, each with its webhook. 409 when the order is final or `to` is not ahead.',
          parameters: [orderId],
          requestBody: body(ref('SandboxAdvanceRequest'), false),
        },
      ),
    },
    '/_sandbox/rotate-client-secret': {
      post: control(
        'sandboxRotateClientSecret',
        "Give an API client of the caller's partner a new secret",
        { 200: ok('The client and its new secret', ref('SandboxClientSecret')) },
        [400, 404, 422],
        {
          description:
            'The old secret is refused at once and every access token of the partner is revoked, as when a secret is rotated on a partner portal. Without `clientSecret` a random one is made.',
          requestBody: body(ref('SandboxClientSecretRotation')),
        },
      ),
    },
    '/_sandbox/faults': {
      get: control('sandboxGetFaults', 'Show the fault injection in force', faultState, []),
      put: control('sandboxSetFaults', 'Inject faults into /v1 requests', faultState, [400, 422], {
        description:
          'Latency, error answers before anything is written, and dropped responses after the write commits.',
        requestBody: body(ref('FaultConfig')),
      }),
      delete: control('sandboxClearFaults', 'Switch fault injection off', faultState, []),
    },
    '/_sandbox/webhook-deliveries': {
      get: control(
        'sandboxListWebhookDeliveries',
        'List webhook deliveries (latest 200, or all of one order)',
        { 200: ok('Deliveries', ref('WebhookDeliveryList')) },
        [],
        {
          parameters: [
            {
              name: 'orderId',
              in: 'query',
              required: false,
              description: 'Only the deliveries of this order, oldest first',
              schema: { type: 'string' },
            },
          ],
        },
      ),
    },
    '/_sandbox/products/{productId}': {
      patch: control(
        'sandboxUpdateProduct',
        "Change a product's status or price",
        { 200: ok('The product after the change', ref('Product')) },
        [400, 404, 422],
        {
          parameters: [productId],
          requestBody: body(ref('SandboxProductChange')),
        },
      ),
    },
  };
}

/** Top-level webhooks: what the service sends to the partner. */
export function webhooks(): Record<string, PathItem> {
  const header = (name: string, description: string) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  return {
    orderStatus: {
      post: {
        operationId: 'orderStatusWebhook',
        tags: ['webhooks'],
        summary: 'Order status changed',
        description:
          "POSTed to the partner's webhookUrl for every order status except DELIVERED. Answer 2xx within 30 seconds; " +
          'otherwise it is retried 3 times, after 1 minute, 5 minutes and 30 minutes, then marked failed. ' +
          'The same event may arrive more than once: deduplicate on order.orderId plus order.updatedAt. ' +
          'Signed per the Standard Webhooks convention with the webhook secret.',
        security: [],
        parameters: [
          header(WEBHOOK_HEADERS.id, 'Message id, the same on every attempt of one delivery'),
          header(WEBHOOK_HEADERS.timestamp, 'Unix time in seconds of this attempt'),
          header(
            WEBHOOK_HEADERS.signature,
            'Space-separated `v1,<base64 HMAC-SHA256>` over "{webhook-id}.{webhook-timestamp}.{body}", keyed with the base64-decoded part of the secret after `whsec_`',
          ),
        ],
        requestBody: body(ref('WebhookPayload')),
        responses: { '2XX': { description: 'Received' } },
      },
    },
  };
}
