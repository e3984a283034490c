import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/api/client';
import { ApiClientError, isOutcomeUnknown } from '@main/api/errors';
import type { CreateOrderRequest } from '@shared/api';
import { startTestSandbox, validOrderBody } from '@test/support/sandbox';
import { startClientHarness, setFaults, type ClientHarness } from '@test/support/client-harness';

let h: ClientHarness | null = null;
afterEach(async () => {
  await h?.sandbox.close();
  h = null;
});

const body = (sourceId: string) => {
  const b = validOrderBody() as CreateOrderRequest;
  return { ...b, customer: { ...b.customer, sourceId } };
};
const caught = async (p: Promise<unknown>): Promise<ApiClientError> => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiClientError);
  return error as ApiClientError;
};
const ordersFor = async (sourceId: string) =>
  (await h!.client.listOrders({ limit: 100 })).orders.filter(
    (o) => o.customer.sourceId === sourceId,
  );

describe('retries of reads', () => {
  it('retries a read after two injected 503s, waiting at least the Retry-After', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 503,
      count: 2,
      match: { method: 'GET', path: '/v1/products' },
    });
    const page = await h.client.listProducts();
    expect(page.products).toHaveLength(10);
    expect(h.fetch.count('GET', '/v1/products')).toBe(3);
    expect(h.sleep.delays).toHaveLength(2);
    expect(h.sleep.delays.every((ms) => ms >= 1000)).toBe(true); // Retry-After: 1
  });

  it('backs off with full jitter when there is no Retry-After (502)', async () => {
    h = await startClientHarness({ client: { random: () => 0.5 } });
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 502,
      count: 3,
      match: { method: 'GET', path: '/v1/shipping-methods' },
    });
    const { shippingMethods: methods } = await h.client.listShippingMethods();
    expect(methods).toHaveLength(3);
    expect(h.fetch.count('GET', '/v1/shipping-methods')).toBe(4);
    expect(h.sleep.delays).toEqual([250, 500, 1000]); // random 0.5 × 500, 1000, 2000
  });

  it('gives up after the retry budget with the last error', async () => {
    h = await startClientHarness({ client: { retries: 2 } });
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 503,
      match: { method: 'GET', path: '/v1/orders' },
    });
    const e = await caught(h.client.listOrders());
    expect(e.kind).toBe('unavailable');
    expect(e.retryAfterMs).toBe(1000);
    expect(isOutcomeUnknown(e)).toBe(false);
    expect(h.fetch.count('GET', '/v1/orders')).toBe(3);
  });

  it('does not retry a 500 on a read', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'GET', path: '/v1/partners' },
    });
    const e = await caught(h.client.getPartnerSettings());
    expect(e.kind).toBe('server');
    expect(h.fetch.count('GET', '/v1/partners/settings')).toBe(1);
  });

  it('retries a read that timed out', async () => {
    h = await startClientHarness({ client: { timeoutMs: 100, retries: 2 } });
    await setFaults(h.sandbox, {
      latencyMs: 400,
      match: { method: 'GET', path: '/v1/shipping-methods' },
    });
    const e = await caught(h.client.listShippingMethods());
    expect(e.kind).toBe('timeout');
    expect(h.fetch.count('GET', '/v1/shipping-methods')).toBe(3);
  });
});

describe('creates are never retried blindly', () => {
  it('a dropped response after commit: outcome unknown, one POST, and the server holds the order', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'POST', path: '/v1/orders' },
    });
    const e = await caught(h.client.createOrder(body('dropped-1')));
    expect(e.kind).toBe('network');
    expect(e.sent).toBe(true);
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(h.fetch.count('POST', '/v1/orders')).toBe(1);
    expect(h.sleep.delays).toEqual([]);
    expect(await ordersFor('dropped-1')).toHaveLength(1);
  });

  it('an injected 503 (refused before acting) is retried, and exactly one order exists', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 503,
      count: 1,
      match: { method: 'POST', path: '/v1/orders' },
    });
    const order = await h.client.createOrder(body('refused-1'));
    expect(h.fetch.count('POST', '/v1/orders')).toBe(2);
    expect(h.sleep.delays[0]).toBeGreaterThanOrEqual(1000);
    const held = await ordersFor('refused-1');
    expect(held.map((o) => o.id)).toEqual([order.id]);
  });

  it('a 429 on create is retried too', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 429,
      count: 2,
      match: { method: 'POST', path: '/v1/protocols' },
    });
    const protocol = await h.client.createProtocol(validOrderBody() as any);
    expect(h.fetch.count('POST', '/v1/protocols')).toBe(3);
    expect((await h.client.listProtocols()).protocols.map((p) => p.id)).toEqual([protocol.id]);
  });

  it('a 500 on create is not retried and its outcome is unknown', async () => {
    h = await startClientHarness();
    await setFaults(h.sandbox, {
      errorRate: 1,
      errorStatus: 500,
      count: 1,
      match: { method: 'POST', path: '/v1/orders' },
    });
    const e = await caught(h.client.createOrder(body('failed-1')));
    expect(e.kind).toBe('server');
    expect(e.status).toBe(500);
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(h.fetch.count('POST', '/v1/orders')).toBe(1);
  });

  it('a create that timed out is not retried and its outcome is unknown', async () => {
    h = await startClientHarness({ client: { timeoutMs: 100 } });
    await setFaults(h.sandbox, { latencyMs: 300, match: { method: 'POST', path: '/v1/orders' } });
    const e = await caught(h.client.createOrder(body('slow-1')));
    expect(e.kind).toBe('timeout');
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(h.fetch.count('POST', '/v1/orders')).toBe(1);
    expect(h.sleep.delays).toEqual([]);
  });

  it('cancel is not retried after a dropped response either', async () => {
    h = await startClientHarness();
    const order = await h.client.createOrder(body('cancel-1'));
    await setFaults(h.sandbox, {
      dropResponseRate: 1,
      count: 1,
      match: { method: 'POST', path: `/v1/orders/${order.id}/cancel` },
    });
    const e = await caught(h.client.cancelOrder(order.id));
    expect(isOutcomeUnknown(e)).toBe(true);
    expect(h.fetch.count('POST', `/v1/orders/${order.id}/cancel`)).toBe(1);
    expect((await h.client.getOrder(order.id)).status).toBe('CANCELLED');
  });
});

describe('a server that is down', () => {
  it('is a network error that was not sent; creates are retried, then fail with outcome known', async () => {
    h = await startClientHarness();
    const { baseUrl } = h.sandbox;
    await h.sandbox.close();
    const reachability: boolean[] = [];
    const sleep = h.sleep;
    const client = createApiClient({
      baseUrl,
      tokens: { getToken: async () => 'token', invalidate: () => undefined },
      sleep,
      onReachability: (r) => reachability.push(r),
    });
    const read = await caught(client.listProducts());
    expect(read.kind).toBe('network');
    expect(read.sent).toBe(false);
    expect(read.message).toMatch(/connection refused/);
    const create = await caught(client.createOrder(body('down-1')));
    expect(create.kind).toBe('network');
    expect(create.sent).toBe(false);
    expect(isOutcomeUnknown(create)).toBe(false);
    expect(sleep.delays).toHaveLength(6); // 3 retries each
    expect(reachability).toEqual(Array(8).fill(false));
  });

  it('reports reachability false while down, then true when answers arrive', async () => {
    h = await startClientHarness({ client: { retries: 0 } });
    const running = h.sandbox;
    let down = true;
    const closedPort = await (async () => {
      const other = await startTestSandbox();
      const port = other.port;
      await other.close();
      return port;
    })();
    const reachability: boolean[] = [];
    const client = createApiClient({
      baseUrl: running.baseUrl,
      tokens: h.tokens,
      retries: 0,
      sleep: h.sleep,
      onReachability: (r) => reachability.push(r),
      fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        const url = new URL(String(input));
        if (down) url.port = String(closedPort);
        return fetch(url, init);
      }) as typeof fetch,
    });
    await expect(client.listShippingMethods()).rejects.toMatchObject({
      kind: 'network',
      sent: false,
    });
    expect(reachability).toEqual([false]);
    down = false;
    expect((await client.listShippingMethods()).shippingMethods).toHaveLength(3);
    expect(reachability).toEqual([false, true]);
    await expect(client.getOrder('ord_missing')).rejects.toMatchObject({ kind: 'not-found' });
    expect(reachability).toEqual([false, true, true]); // an error answer is still an answer
  });
});
