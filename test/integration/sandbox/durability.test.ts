import Database from 'better-sqlite3-multiple-ciphers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '@sandbox/index';
import { Order, ORDER_STATUSES_V101, TokenResponse, type OrderStatus } from '@shared/api';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { waitFor } from '@test/support/wait';
import {
  payloadOf,
  signedWith,
  startWebhookReceiver,
  webhookHeaders,
  type WebhookReceiver,
} from '@test/support/webhook-receiver';

const CHAIN: OrderStatus[] = [
  'NEW',
  'PROCESSING',
  'DISPENSING',
  'FILLED',
  'FULFILLED',
  'AWAITING_SHIPMENT',
  'SHIPPED',
];

interface DeliveryRow {
  id: string;
  status: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}

let dir: string;
let file: string;
const cleanups: (() => Promise<void>)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'order-desk-durability-'));
  file = join(dir, 'sandbox.db');
});

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startTestSandbox>[0] = {}): Promise<TestSandbox> {
  const sandbox = await startTestSandbox({ db: file, ...options });
  cleanups.push(() => sandbox.close()); // close() is idempotent
  return sandbox;
}

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  cleanups.push(() => r.close());
  return r;
}

const deliveries = async (sandbox: TestSandbox, orderId: string) =>
  (
    await sandbox.api<{ deliveries: DeliveryRow[] }>(
      'GET',
      `/_sandbox/webhook-deliveries?orderId=${orderId}`,
    )
  ).body.deliveries;

describe('a sandbox restarted on the same database file', () => {
  it('keeps orders, protocols, settings and the client credentials', async () => {
    const first = await start();
    const ids: string[] = [];
    for (const sourceId of ['p-1', 'p-2', 'p-3']) {
      const body = validOrderBody({ customer: { ...validOrderBody().customer, sourceId } });
      const res = await first.api('POST', '/v1/orders', body);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    expect((await first.api('POST', `/v1/orders/${ids[0]}/cancel`)).status).toBe(200);
    const shipped = await first.api('POST', `/_sandbox/orders/${ids[1]}/advance`, {
      to: 'SHIPPED',
    });
    expect(shipped.body.status).toBe('SHIPPED');
    const protocolIds: string[] = [];
    for (const daysSupply of [30, 60, 90]) {
      const res = await first.api('POST', '/v1/protocols', validOrderBody({ daysSupply }));
      expect(res.status).toBe(201);
      protocolIds.push(res.body.id);
    }
    expect(
      (
        await first.api(
          'PUT',
          `/v1/protocols/${protocolIds[0]}`,
          validOrderBody({ shippingMethod: 'EXPRESS' }),
        )
      ).status,
    ).toBe(200);
    expect((await first.api('DELETE', `/v1/protocols/${protocolIds[2]}`)).status).toBe(200);
    expect(
      (
        await first.api('PATCH', '/v1/partners/settings', {
          primaryColor: '#123abc',
          billingCity: 'Salem',
        })
      ).status,
    ).toBe(200);

    const read = async (s: TestSandbox) => ({
      orders: (await s.api('GET', '/v1/orders?limit=100')).body,
      protocols: (await s.api('GET', '/v1/protocols?limit=100')).body,
      orderBodies: await Promise.all(
        ids.map(async (id) => (await s.api('GET', `/v1/orders/${id}`)).body),
      ),
      protocolBodies: await Promise.all(
        protocolIds.slice(0, 2).map(async (id) => (await s.api('GET', `/v1/protocols/${id}`)).body),
      ),
      settings: (await s.api('GET', '/v1/partners/settings')).body,
    });
    const before = await read(first);
    expect(before.orders.orders.map((o: { id: string }) => o.id)).toEqual([...ids].reverse());
    expect(before.protocolBodies[0].shippingMethod).toBe('EXPRESS');
    const oldToken = first.token;
    await first.close();

    // startTestSandbox requests a token with the same client credentials: that is the first check.
    const second = await start();
    const after = await read(second);
    expect(after).toEqual(before);
    expect((await second.api('GET', `/v1/protocols/${protocolIds[2]}`)).status).toBe(404);

    const token = await fetch(second.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: second.clientId,
        client_secret: second.clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    expect(TokenResponse.parse(await token.json()).access_token).not.toBe(oldToken);
    // Issued tokens are stored too: one from before the restart is still accepted until it expires.
    expect(
      (
        await second.api('GET', '/v1/partners/settings', undefined, {
          authorization: `Bearer ${oldToken}`,
        })
      ).status,
    ).toBe(200);

    // The 1.0.2 order, tracking included, carries on from where it was.
    const delivered = Order.parse(
      (await second.api('POST', `/_sandbox/orders/${ids[1]}/advance`)).body,
    );
    expect(delivered.status).toBe('DELIVERED');
    expect(delivered.fulfillmentInfo!.trackingNumber).toBe(
      shipped.body.fulfillmentInfo.trackingNumber,
    );
    expect(delivered.fulfillmentInfo!.checkpoints!.slice(0, 2)).toEqual(
      shipped.body.fulfillmentInfo.checkpoints,
    );
    const created = await second.api('POST', '/v1/orders', validOrderBody());
    expect(created.status).toBe(201);
    expect(ids).not.toContain(created.body.id);
    expect((await second.api('GET', '/v1/orders?limit=1')).body.orders[0].id).toBe(created.body.id);
  });

  it('delivers a webhook that was pending when it stopped, with the same webhook-id', async () => {
    const hooks = await receiver();
    hooks.respond(() => 503);
    const first = await start({ timeScale: 600, allowLoopbackWebhooks: true });
    expect(
      (await first.api('PATCH', '/v1/partners/settings', { webhookUrl: hooks.url })).status,
    ).toBe(200);
    const secret = (await first.api('GET', '/v1/partners/settings/webhook-secret')).body
      .webhookSecret as string;
    const orderId = (await first.api('POST', '/v1/orders', validOrderBody())).body.id as string;

    const pending = await waitFor(
      async () => {
        const [d] = await deliveries(first, orderId);
        return d && d.state === 'pending' && d.lastStatus === 503 && d;
      },
      5_000,
      'a delivery refused with 503',
    );
    await first.close();
    const refused = hooks.requests.length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(
      hooks.requests.every((r) => r.answered === 503 && webhookHeaders(r).id === pending.id),
    ).toBe(true);

    hooks.respond(() => 200);
    const second = await start({ timeScale: 600, allowLoopbackWebhooks: true });
    expect(
      (await second.api('GET', '/v1/partners/settings/webhook-secret')).body.webhookSecret,
    ).toBe(secret);
    const done = await waitFor(
      async () => {
        const [d] = await deliveries(second, orderId);
        return d && d.state === 'delivered' && d;
      },
      5_000,
      'the pending delivery after the restart',
    );
    expect(done.id).toBe(pending.id);
    expect(done.attempts).toBeGreaterThan(pending.attempts);

    const accepted = hooks.requests.filter((r) => r.answered === 200);
    expect(accepted).toHaveLength(1);
    expect(webhookHeaders(accepted[0]!).id).toBe(pending.id);
    expect(accepted[0]!.body).toBe(hooks.requests[0]!.body);
    expect(signedWith(secret, accepted[0]!)).toBe(true);
    expect(payloadOf(accepted[0]!).order).toMatchObject({ orderId, status: 'NEW' });
  });

  it('does not call a loopback webhookUrl left by a sandbox that took loopback webhooks', async () => {
    const hooks = await receiver();
    const first = await start({ timeScale: 600, allowLoopbackWebhooks: true });
    expect(
      (await first.api('PATCH', '/v1/partners/settings', { webhookUrl: hooks.url })).status,
    ).toBe(200);
    await first.close();

    const second = await start({ timeScale: 600 });
    const orderId = (await second.api('POST', '/v1/orders', validOrderBody())).body.id as string;
    const refused = await waitFor(
      async () => {
        const [d] = await deliveries(second, orderId);
        return d && d.attempts >= 2 && d;
      },
      5_000,
      'two attempts of the delivery',
    );
    expect(refused).toMatchObject({ state: 'pending', lastStatus: null });
    expect(refused.lastError).toMatch(/^not sent: the webhookUrl is a loopback address/);
    expect(hooks.requests).toHaveLength(0);
  });

  it('refuses a database written by a newer sandbox, and leaves it untouched', async () => {
    const future = new Database(file);
    future.pragma('user_version = 99');
    future.close();
    await expect(
      startSandbox({ db: file, port: 0, autoAdvance: 0 }, { log: () => undefined }),
    ).rejects.toThrow(/schema version 99.*newer than this sandbox/);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.pragma('user_version', { simple: true })).toBe(99);
    expect(reopened.prepare('SELECT COUNT(*) AS n FROM sqlite_master').get()).toEqual({ n: 0 });
    reopened.close();
  });
});

describe('auto-advance', () => {
  it('walks an order to DELIVERED by itself and leaves a cancelled order alone', async () => {
    // autoAdvance 60 sandbox seconds at timeScale 600: one step every 100 ms.
    const hooks = await receiver();
    const sandbox = await start({
      db: ':memory:',
      autoAdvance: 60,
      timeScale: 600,
      allowLoopbackWebhooks: true,
    });
    expect(
      (await sandbox.api('PATCH', '/v1/partners/settings', { webhookUrl: hooks.url })).status,
    ).toBe(200);

    const walker = Order.parse((await sandbox.api('POST', '/v1/orders', validOrderBody())).body);
    // Cancel must land before the first step; if the step won the race, try a fresh order.
    const cancelled = await waitFor(
      async () => {
        const created = await sandbox.api('POST', '/v1/orders', validOrderBody());
        const res = await sandbox.api('POST', `/v1/orders/${created.body.id}/cancel`);
        return res.status === 200 && Order.parse(res.body);
      },
      5_000,
      'an order cancelled while NEW',
    );

    const seen: string[] = [];
    await waitFor(
      async () => {
        const { status } = (await sandbox.api('GET', `/v1/orders/${walker.id}`)).body as {
          status: string;
        };
        if (seen.at(-1) !== status) seen.push(status);
        return status === 'SHIPPED';
      },
      10_000,
      'the order to ship by itself',
    );
    // Whatever the polls caught, they caught it in chain order (1.0.1 names).
    const order101 = ['CREATED', 'PROCESSING', 'FULFILLED', 'AWAITING_SHIPMENT', 'SHIPPED'];
    expect(seen.every((s) => (ORDER_STATUSES_V101 as readonly string[]).includes(s))).toBe(true);
    expect([...seen].sort((a, b) => order101.indexOf(a) - order101.indexOf(b))).toEqual(seen);

    // 1.0.1 shows DELIVERED as SHIPPED; the 409 of cancel names the 1.0.2 status without writing.
    await waitFor(
      async () => {
        const res = await sandbox.api('POST', `/v1/orders/${walker.id}/cancel`);
        expect(res.status).toBe(409);
        return /\bDELIVERED\b/.test(res.body.detail);
      },
      10_000,
      'the order to be delivered',
    );
    const final = await sandbox.api('POST', `/_sandbox/orders/${walker.id}/advance`);
    expect(final.status).toBe(409);
    expect(final.body.detail).toMatch(/DELIVERED/);
    const got = (await sandbox.api('GET', `/v1/orders/${walker.id}`)).body;
    expect(got.status).toBe('SHIPPED');
    expect(got.fulfillmentInfo.trackingNumber).toEqual(expect.any(String));

    // One webhook per step, none for DELIVERED.
    const rows = await waitFor(async () => {
      const list = await deliveries(sandbox, walker.id);
      return list.every((d) => d.state === 'delivered') && list;
    });
    expect(rows.map((d) => d.status)).toEqual(CHAIN);

    // Many steps have run since the cancel; the cancelled order did not move.
    expect((await sandbox.api('GET', `/v1/orders/${cancelled.id}`)).body).toMatchObject({
      status: 'CANCELLED',
      updatedAt: cancelled.updatedAt,
    });
    expect((await deliveries(sandbox, cancelled.id)).map((d) => d.status)).toEqual([
      'NEW',
      'CANCELLED',
    ]);
    expect((await sandbox.api('POST', `/_sandbox/orders/${cancelled.id}/advance`)).status).toBe(
      409,
    );
  });
});
