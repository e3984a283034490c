import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '@main/api/client';
import { ApiClientError, isOutcomeUnknown } from '@main/api/errors';
import type { CreateOrderRequest, ProtocolRequest } from '@shared/api';
import { validOrderBody } from '@test/support/sandbox';
import {
  countingFetch,
  startClientHarness,
  type ClientHarness,
} from '@test/support/client-harness';

let h: ClientHarness | null = null;
afterEach(async () => {
  await h?.sandbox.close();
  h = null;
});

const caught = async (p: Promise<unknown>): Promise<ApiClientError> => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiClientError);
  return error as ApiClientError;
};

/** A fetch that rewrites the JSON answer of one path. */
function rewritingFetch(path: string, rewrite: (body: any) => unknown): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const res = await fetch(input, init);
    if (new URL(String(input)).pathname !== path) return res;
    const body = rewrite(await res.json());
    return new Response(JSON.stringify(body), { status: res.status, headers: res.headers });
  }) as typeof fetch;
}

describe('ApiClient errors', () => {
  it('422: kind validation with field errors keyed by the body path', async () => {
    h = await startClientHarness();
    const body = validOrderBody() as CreateOrderRequest;
    body.customer.address.zipCode = '123';
    const e = await caught(h.client.createOrder(body));
    expect(e.kind).toBe('validation');
    expect(e.status).toBe(422);
    expect(e.issues).toContainEqual(
      expect.objectContaining({ loc: ['body', 'customer', 'address', 'zipCode'], type: 'invalid' }),
    );
    const fields = e.fieldErrors();
    expect(Object.keys(fields)).toEqual(['customer.address.zipCode']);
    expect(fields['customer.address.zipCode']).toMatch(/5 digits/);
    expect(e.message).toContain('customer.address.zipCode');
    expect(isOutcomeUnknown(e)).toBe(false);
    expect(h.fetch.count('POST', '/v1/orders')).toBe(1);
    expect((await h.client.listOrders()).orders).toHaveLength(0);
  });

  it('422 on update protocol: several fields, each with its own message', async () => {
    h = await startClientHarness();
    const created = await h.client.createProtocol(validOrderBody() as ProtocolRequest);
    const bad = validOrderBody({ daysSupply: 45 }) as any;
    delete bad.customer.firstName;
    const e = await caught(h.client.replaceProtocol(created.id, bad));
    expect(e.kind).toBe('validation');
    const fields = e.fieldErrors();
    expect(Object.keys(fields).sort()).toEqual(['customer.firstName', 'daysSupply']);
    expect(e.issues.find((i) => i.loc.join('.') === 'body.customer.firstName')?.type).toBe(
      'missing',
    );
  });

  it('400: kind bad-request carrying the detail', async () => {
    h = await startClientHarness();
    const e = await caught(h.client.listOrders({ limit: 1000 }));
    expect(e.kind).toBe('bad-request');
    expect(e.status).toBe(400);
    expect(e.detail).toMatch(/limit/);
    expect(e.message).toBe(e.detail);
    expect(h.fetch.count('GET', '/v1/orders')).toBe(1); // not retried
  });

  it('404: kind not-found', async () => {
    h = await startClientHarness();
    const e = await caught(h.client.getOrder('ord_does_not_exist'));
    expect(e.kind).toBe('not-found');
    expect(e.status).toBe(404);
    expect(e.detail).toContain('ord_does_not_exist');
    await expect(h.client.deleteProtocol('prt_nope')).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('409: cancel of a PROCESSING order is a conflict with a clear message; the order is unchanged', async () => {
    h = await startClientHarness();
    const order = await h.client.createOrder(validOrderBody() as CreateOrderRequest);
    const advanced = await h.sandbox.api('POST', `/_sandbox/orders/${order.id}/advance`, {
      to: 'PROCESSING',
    });
    expect(advanced.status).toBe(200);
    const e = await caught(h.client.cancelOrder(order.id));
    expect(e.kind).toBe('conflict');
    expect(e.status).toBe(409);
    expect(e.message).toMatch(/can no longer be cancelled/);
    expect(e.message).toContain('PROCESSING');
    expect(isOutcomeUnknown(e)).toBe(false);
    expect(h.fetch.count('POST', `/v1/orders/${order.id}/cancel`)).toBe(1);
    expect((await h.client.getOrder(order.id)).status).toBe('PROCESSING');
  });

  it('a missing required field in an answer is invalid-response naming the field', async () => {
    h = await startClientHarness();
    const fetch = countingFetch(
      rewritingFetch('/v1/products/1001', (body) => {
        delete body.name;
        body.price = 12;
        return body;
      }),
    );
    const client = createApiClient({
      baseUrl: h.sandbox.baseUrl,
      tokens: h.tokens,
      fetch,
      sleep: h.sleep,
    });
    const e = await caught(client.getProduct(1001));
    expect(e.kind).toBe('invalid-response');
    expect(e.problems.some((p) => p.startsWith('name:'))).toBe(true);
    expect(e.problems.some((p) => p.startsWith('price:'))).toBe(true);
    expect(e.message).toMatch(/name/);
    expect(fetch.count('GET', '/v1/products/1001')).toBe(1);
  });

  it('unknown extra fields in an answer are tolerated and dropped', async () => {
    h = await startClientHarness();
    const fetch = rewritingFetch('/v1/products/1001', (body) => ({
      ...body,
      surprise: { nested: true },
    }));
    const client = createApiClient({
      baseUrl: h.sandbox.baseUrl,
      tokens: h.tokens,
      fetch,
      sleep: h.sleep,
    });
    const product = await client.getProduct(1001);
    expect(product.id).toBe(1001);
    expect('surprise' in product).toBe(false);
  });

  it('a second 401 with a fresh token is unauthorized (renewed exactly once)', async () => {
    h = await startClientHarness();
    const invalidated: string[] = [];
    const client = createApiClient({
      baseUrl: h.sandbox.baseUrl,
      tokens: {
        getToken: async () => 'not-a-valid-token',
        invalidate: (t) => void invalidated.push(t),
      },
      fetch: h.fetch,
      sleep: h.sleep,
    });
    const e = await caught(client.getPartnerSettings());
    expect(e.kind).toBe('unauthorized');
    expect(e.reason).toBe('token-rejected');
    expect(e.message).not.toContain('not-a-valid-token');
    expect(invalidated).toEqual(['not-a-valid-token']);
    expect(h.fetch.count('GET', '/v1/partners/settings')).toBe(2);
  });
});
