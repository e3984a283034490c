import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Order, WEBHOOK_SECRET_PATTERN, type OrderStatus } from '@shared/api';
import { verifyWebhook } from '@sandbox/webhooks/signing';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { waitFor } from '@test/support/wait';
import {
  payloadOf,
  signedWith,
  startWebhookReceiver,
  webhookHeaders,
  type ReceivedRequest,
  type WebhookReceiver,
} from '@test/support/webhook-receiver';

/**
 * Status webhooks against a real receiver. timeScale 120 makes the 30 s attempt timeout 250 ms,
 * far above a loopback round trip; these tests never need a retry. Retries: webhook-retries.test.ts.
 */
const CHAIN: OrderStatus[] = [
  'NEW',
  'PROCESSING',
  'DISPENSING',
  'FILLED',
  'FULFILLED',
  'AWAITING_SHIPMENT',
  'SHIPPED',
];

let sandbox: TestSandbox;
let receiver: WebhookReceiver;
let secret: string;

interface DeliveryRow {
  id: string;
  orderId: string;
  status: string;
  state: string;
  attempts: number;
  lastStatus: number | null;
}

const deliveriesFor = async (orderId: string): Promise<DeliveryRow[]> => {
  const res = await sandbox.api<{ deliveries: DeliveryRow[] }>(
    'GET',
    `/_sandbox/webhook-deliveries?orderId=${orderId}`,
  );
  expect(res.status).toBe(200);
  return res.body.deliveries;
};

/** Webhooks the receiver accepted for an order, one per webhook-id (receivers dedupe retries). */
function hooksFor(orderId: string): ReceivedRequest[] {
  const byId = new Map<string, ReceivedRequest>();
  for (const r of receiver.requests) {
    if (r.answered === 200 && payloadOf(r).order.orderId === orderId)
      byId.set(webhookHeaders(r).id, r);
  }
  return [...byId.values()];
}

const hookWithStatus = (orderId: string, status: OrderStatus) =>
  waitFor(
    () => hooksFor(orderId).find((r) => payloadOf(r).order.status === status),
    5_000,
    `${status} webhook of ${orderId}`,
  );

async function createOrder(): Promise<Order> {
  const res = await sandbox.api('POST', '/v1/orders', validOrderBody());
  expect(res.status).toBe(201);
  return Order.parse(res.body);
}

const advance = (orderId: string, body?: unknown) =>
  sandbox.api('POST', `/_sandbox/orders/${orderId}/advance`, body);

/** Every webhook the receiver got must be signed with the current secret and parse as a payload. */
function expectSignedPayload(r: ReceivedRequest) {
  expect(r.method).toBe('POST');
  expect(r.url).toBe('/hooks/order-status');
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const h = webhookHeaders(r);
  expect(h.id).toMatch(/^msg_[0-9a-z]+$/);
  expect(h.timestamp).toMatch(/^\d+$/);
  expect(Math.abs(Number(h.timestamp) - Date.now() / 1000)).toBeLessThan(300);
  expect(signedWith(secret, r)).toBe(true);
  expect(verifyWebhook(secret, h, r.body, Math.floor(Date.now() / 1000))).toBe(true);
  return payloadOf(r);
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  sandbox = await startTestSandbox({ timeScale: 120, allowLoopbackWebhooks: true });
  const patched = await sandbox.api('PATCH', '/v1/partners/settings', { webhookUrl: receiver.url });
  expect(patched.status).toBe(200);
  expect(patched.body.webhookUrl).toBe(receiver.url);
  const res = await sandbox.api<{ webhookSecret: string }>(
    'GET',
    '/v1/partners/settings/webhook-secret',
  );
  expect(res.status).toBe(200);
  expect(res.body.webhookSecret).toMatch(WEBHOOK_SECRET_PATTERN);
  secret = res.body.webhookSecret;
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

beforeEach(() => receiver.respond(() => 200));

describe('status webhooks', () => {
  it('creating an order delivers a signed NEW webhook that matches the order', async () => {
    const order = await createOrder();
    const hook = await hookWithStatus(order.id, 'NEW');
    expectSignedPayload(hook);
    // Exactly the payload table: no fulfillmentInfo before SHIPPED.
    expect(JSON.parse(hook.body)).toStrictEqual({
      order: {
        orderId: order.id,
        status: 'NEW',
        createdAt: order.createdAt,
        updatedAt: order.updatedAt,
      },
    });
    const delivered = await waitFor(async () => {
      const list = await deliveriesFor(order.id);
      return list.length === 1 && list[0]!.state === 'delivered' && list;
    });
    expect(delivered[0]).toMatchObject({
      id: webhookHeaders(hook).id,
      status: 'NEW',
      attempts: 1,
      lastStatus: 200,
    });
  });

  it('each step of the advance control delivers its webhook; DELIVERED has none', async () => {
    const order = await createOrder();
    for (const status of CHAIN.slice(1)) {
      const res = await advance(order.id);
      expect(res.status).toBe(200);
      const advanced = Order.parse(res.body);
      expect(advanced.status).toBe(status);
      const payload = expectSignedPayload(await hookWithStatus(order.id, status));
      if (status === 'SHIPPED') {
        const info = advanced.fulfillmentInfo!;
        expect(info).toMatchObject({ carrier: 'USPS', trackingStatus: 'InTransit' });
        expect(info.trackingNumber).toMatch(/^9400\d{18}$/);
        expect(info.trackingUrl).toContain(info.trackingNumber);
        expect(info.checkpoints!.length).toBeGreaterThan(0);
        expect(info.checkpoints!.at(-1)!.tag).toBe('InTransit');
      } else {
        expect(advanced.fulfillmentInfo).toBeNull();
      }
      expect(payload).toStrictEqual({
        order: {
          orderId: order.id,
          status,
          ...(status === 'SHIPPED' ? { fulfillmentInfo: advanced.fulfillmentInfo } : {}),
          createdAt: order.createdAt,
          updatedAt: advanced.updatedAt,
        },
      });
    }

    const delivered = await advance(order.id);
    expect(delivered.status).toBe(200);
    expect(delivered.body.status).toBe('DELIVERED');
    expect(delivered.body.fulfillmentInfo.trackingStatus).toBe('Delivered');
    // The outbox is written with the order change: no delivery was queued for DELIVERED.
    const list = await waitFor(async () => {
      const rows = await deliveriesFor(order.id);
      return rows.every((d) => d.state === 'delivered') && rows;
    });
    expect(list.map((d) => d.status)).toEqual(CHAIN);
    expect(hooksFor(order.id).map((r) => payloadOf(r).order.status)).toEqual(CHAIN);
    const got = await sandbox.api('GET', `/v1/orders/${order.id}`);
    expect(got.body).toMatchObject({ status: 'SHIPPED', updatedAt: delivered.body.updatedAt });
  });

  it('advance to SHIPPED from NEW fires every intermediate webhook, in order, each with its own updatedAt', async () => {
    const order = await createOrder();
    const res = await advance(order.id, { to: 'SHIPPED' });
    expect(res.status).toBe(200);
    const shipped = Order.parse(res.body);
    expect(shipped.status).toBe('SHIPPED');
    expect((await deliveriesFor(order.id)).map((d) => d.status)).toEqual(CHAIN);

    const hooks = await waitFor(
      () => hooksFor(order.id).length === CHAIN.length && hooksFor(order.id),
    );
    const payloads = hooks.map(expectSignedPayload).map((p) => p.order);
    // Deliveries run concurrently, so arrival order is free; updatedAt orders them.
    payloads.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
    expect(payloads.map((p) => p.status)).toEqual(CHAIN);
    const stamps = payloads.map((p) => Date.parse(p.updatedAt));
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
    // The dedupe key of the spec (orderId + updatedAt) tells every event apart.
    expect(new Set(payloads.map((p) => `${p.orderId}|${p.updatedAt}`)).size).toBe(CHAIN.length);
    expect(payloads.at(-1)).toStrictEqual({
      orderId: order.id,
      status: 'SHIPPED',
      fulfillmentInfo: shipped.fulfillmentInfo,
      createdAt: order.createdAt,
      updatedAt: shipped.updatedAt,
    });
    expect(payloads.slice(0, -1).every((p) => !('fulfillmentInfo' in p))).toBe(true);
  });

  it('cancelling an order delivers CANCELLED', async () => {
    const order = await createOrder();
    const res = await sandbox.api('POST', `/v1/orders/${order.id}/cancel`);
    expect(res.status).toBe(200);
    const cancelled = Order.parse(res.body);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.updatedAt).not.toBe(order.updatedAt);
    const payload = expectSignedPayload(await hookWithStatus(order.id, 'CANCELLED'));
    expect(payload).toStrictEqual({
      order: {
        orderId: order.id,
        status: 'CANCELLED',
        createdAt: order.createdAt,
        updatedAt: cancelled.updatedAt,
      },
    });
    expect((await deliveriesFor(order.id)).map((d) => d.status)).toEqual(['NEW', 'CANCELLED']);
  });
});

describe('the advance control refuses moves that are not ahead', () => {
  async function expectRefused(orderId: string, body: unknown, status: number) {
    const before = await sandbox.api('GET', `/v1/orders/${orderId}`);
    const queued = (await deliveriesFor(orderId)).length;
    const res = await advance(orderId, body);
    expect(res.status).toBe(status);
    expect(res.body.detail).toEqual(expect.anything());
    expect(await sandbox.api('GET', `/v1/orders/${orderId}`)).toMatchObject({ body: before.body });
    expect((await deliveriesFor(orderId)).length).toBe(queued);
    return res.body.detail as unknown;
  }

  it('409 for a DELIVERED order', async () => {
    const order = await createOrder();
    expect((await advance(order.id, { to: 'DELIVERED' })).body.status).toBe('DELIVERED');
    expect(await expectRefused(order.id, undefined, 409)).toMatch(/DELIVERED/);
    await expectRefused(order.id, { to: 'DELIVERED' }, 409);
  });

  it('409 for a CANCELLED order', async () => {
    const order = await createOrder();
    expect((await sandbox.api('POST', `/v1/orders/${order.id}/cancel`)).status).toBe(200);
    expect(await expectRefused(order.id, undefined, 409)).toMatch(/CANCELLED/);
    await expectRefused(order.id, { to: 'SHIPPED' }, 409);
  });

  it('409 for a target behind or equal to the current status', async () => {
    const order = await createOrder();
    expect((await advance(order.id, { to: 'FILLED' })).body.status).toBe('FILLED');
    await expectRefused(order.id, { to: 'PROCESSING' }, 409);
    await expectRefused(order.id, { to: 'FILLED' }, 409);
    expect((await advance(order.id, { to: 'FULFILLED' })).body.status).toBe('FULFILLED');
  });

  it('422 for a target that is not on the fulfillment chain, 404 for an unknown order', async () => {
    const order = await createOrder();
    for (const to of ['NEW', 'CANCELLED', 'shipped', 7]) {
      const detail = await expectRefused(order.id, { to }, 422);
      expect(detail).toEqual([expect.objectContaining({ loc: ['body', 'to'] })]);
    }
    const unknown = await advance('ord_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/ord_doesnotexist/);
  });
});

describe('webhook secret rotation', () => {
  it('signs later deliveries with the new secret only', async () => {
    const old = secret;
    const rotated = await sandbox.api<{ webhookSecret: string }>(
      'POST',
      '/v1/partners/settings/rotate-webhook-secret',
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookSecret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(rotated.body.webhookSecret).not.toBe(old);
    expect((await sandbox.api('GET', '/v1/partners/settings/webhook-secret')).body).toEqual(
      rotated.body,
    );
    secret = rotated.body.webhookSecret;

    const order = await createOrder();
    const hook = await hookWithStatus(order.id, 'NEW');
    expectSignedPayload(hook);
    expect(signedWith(old, hook)).toBe(false);
    expect(verifyWebhook(old, webhookHeaders(hook), hook.body, Math.floor(Date.now() / 1000))).toBe(
      false,
    );
  });
});
