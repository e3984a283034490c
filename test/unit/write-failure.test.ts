import { describe, expect, it } from 'vitest';
import { ApiClientError } from '../../src/main/api/errors';
import { retryDelayMs } from '../../src/main/jobs/backoff';
import { writeFailure } from '../../src/main/jobs/write-failure';
import { orderMatchesRequest } from '../../src/main/orders/order-reconcile';
import type { AppOrder, CreateOrderRequest } from '../../src/shared/api';

const err = (init: ConstructorParameters<typeof ApiClientError>[0]) => new ApiClientError(init);

describe('writeFailure', () => {
  it('puts every failure in exactly one class', () => {
    const kinds = (e: unknown) => writeFailure(e).to;
    expect(
      kinds(
        err({
          kind: 'validation',
          status: 422,
          message: 'x',
          issues: [{ loc: ['body', 'daysSupply'], type: 'invalid' }],
        }),
      ),
    ).toBe('rejected');
    expect(kinds(err({ kind: 'bad-request', status: 400, message: 'x', detail: 'bad' }))).toBe(
      'rejected',
    );
    expect(
      kinds(err({ kind: 'rate-limited', status: 429, message: 'x', retryAfterMs: 2000 })),
    ).toBe('queued');
    expect(kinds(err({ kind: 'unavailable', status: 503, message: 'x' }))).toBe('queued');
    expect(kinds(err({ kind: 'network', sent: false, message: 'x' }))).toBe('queued');
    expect(kinds(err({ kind: 'network', sent: true, message: 'x' }))).toBe('in_doubt');
    expect(kinds(err({ kind: 'timeout', message: 'x' }))).toBe('in_doubt');
    expect(kinds(err({ kind: 'server', status: 500, message: 'x' }))).toBe('in_doubt');
    expect(kinds(new TypeError('bug'))).toBe('in_doubt');
  });

  it('keeps the server reason of a rejection', () => {
    expect(
      writeFailure(err({ kind: 'bad-request', status: 400, message: 'm', detail: 'Bad limit' })),
    ).toEqual({
      to: 'rejected',
      error: { kind: 'detail', status: 400, detail: 'Bad limit' },
    });
  });

  it('keeps the server Retry-After of a 429 for the backoff', () => {
    expect(
      writeFailure(err({ kind: 'rate-limited', status: 429, message: 'm', retryAfterMs: 2000 })),
    ).toMatchObject({ to: 'queued', retry: 'backoff', retryAfterMs: 2000 });
  });
});

describe('retryDelayMs', () => {
  it('grows, is jittered within [ceiling/2, ceiling] and honours Retry-After', () => {
    expect(retryDelayMs(1, undefined, () => 0)).toBe(500);
    expect(retryDelayMs(1, undefined, () => 0.999)).toBe(999);
    expect(retryDelayMs(4, undefined, () => 0)).toBe(4000);
    expect(retryDelayMs(30, undefined, () => 1)).toBe(60_000);
    expect(retryDelayMs(1, 5000, () => 0)).toBe(5000);
  });
});

describe('orderMatchesRequest', () => {
  const request: CreateOrderRequest = {
    customer: {
      sourceId: 'p-1',
      firstName: 'A',
      lastName: 'B',
      address: { line1: 'x', city: 'y', state: 'OR', zipCode: '97210' },
    },
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: 1,
        quantity: 2,
        packDescription: 'p',
        administration: { morning: 2, afternoon: 0, evening: 0, sleep: 0 },
      },
      { productId: 9, quantity: 1, administration: null },
    ],
  };
  const sentAt = Date.parse('2030-01-01T10:00:00Z');
  const order = (over: Partial<AppOrder> = {}, customer: Partial<AppOrder['customer']> = {}) =>
    ({
      customer: { sourceId: 'p-1', ...customer },
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      orderType: 'ONE_TIME',
      createdAt: '2030-01-01T10:00:01Z',
      lineItems: [
        { productId: 9, quantity: 1 },
        { productId: 1, quantity: 2 },
      ],
      ...over,
    }) as AppOrder;

  it('matches on sourceId, line items as a multiset, days supply, shipping, type and time', () => {
    expect(orderMatchesRequest(order(), request, sentAt, 60_000)).toBe(true);
    expect(orderMatchesRequest(order({}, { sourceId: 'p-2' }), request, sentAt, 60_000)).toBe(
      false,
    );
    expect(orderMatchesRequest(order({ daysSupply: 60 }), request, sentAt, 60_000)).toBe(false);
    expect(orderMatchesRequest(order({ shippingMethod: 'EXPRESS' }), request, sentAt, 60_000)).toBe(
      false,
    );
    expect(orderMatchesRequest(order({ orderType: 'SUBSCRIPTION' }), request, sentAt, 60_000)).toBe(
      false,
    );
    const other = [
      { productId: 1, quantity: 3 },
      { productId: 9, quantity: 1 },
    ] as AppOrder['lineItems'];
    expect(orderMatchesRequest(order({ lineItems: other }), request, sentAt, 60_000)).toBe(false);
  });

  it('accepts an order up to the skew margin before the send, not earlier', () => {
    expect(
      orderMatchesRequest(order({ createdAt: '2030-01-01T09:59:30Z' }), request, sentAt, 60_000),
    ).toBe(true);
    expect(
      orderMatchesRequest(order({ createdAt: '2030-01-01T09:58:59Z' }), request, sentAt, 60_000),
    ).toBe(false);
  });
});
