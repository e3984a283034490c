import { describe, expect, it } from 'vitest';
import { ApiClientError } from '@main/api/errors';
import { retryDelayMs } from '@main/jobs/backoff';
import { writeFailure } from '@main/jobs/write-failure';
import { orderMatchesRequest } from '@main/orders/order-reconcile';
import type { AppOrder, CreateOrderRequest } from '@shared/api';

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
  const since = Date.parse('2030-01-01T09:59:30Z');
  const order = (over: Partial<AppOrder> = {}, customer: Partial<AppOrder['customer']> = {}) =>
    ({
      customer: {
        sourceId: 'p-1',
        firstName: 'A',
        lastName: 'B',
        email: null,
        phone: null,
        address: { line1: 'x', line2: null, city: 'y', state: 'OR', zipCode: '97210' },
        ...customer,
      },
      daysSupply: 30,
      shippingMethod: 'STANDARD',
      orderType: 'ONE_TIME',
      createdAt: '2030-01-01T10:00:01Z',
      lineItems: [
        { productId: 9, quantity: 1, administration: null },
        {
          productId: 1,
          quantity: 2,
          administration: { morning: 2, afternoon: 0, evening: 0, sleep: 0 },
        },
      ],
      ...over,
    }) as AppOrder;

  it('matches on every field sent, line items as a multiset with their doses', () => {
    expect(orderMatchesRequest(order(), request, since)).toBe(true);
    expect(orderMatchesRequest(order({}, { sourceId: 'p-2' }), request, since)).toBe(false);
    expect(orderMatchesRequest(order({}, { lastName: 'C' }), request, since)).toBe(false);
    expect(orderMatchesRequest(order({}, { email: 'a@b.co' }), request, since)).toBe(false);
    const moved = { line1: 'x', line2: null, city: 'y', state: 'OR', zipCode: '97211' };
    expect(orderMatchesRequest(order({}, { address: moved }), request, since)).toBe(false);
    expect(orderMatchesRequest(order({ daysSupply: 60 }), request, since)).toBe(false);
    expect(orderMatchesRequest(order({ shippingMethod: 'EXPRESS' }), request, since)).toBe(false);
    expect(orderMatchesRequest(order({ orderType: 'SUBSCRIPTION' }), request, since)).toBe(false);
    const more = [
      {
        productId: 1,
        quantity: 3,
        administration: { morning: 3, afternoon: 0, evening: 0, sleep: 0 },
      },
      { productId: 9, quantity: 1, administration: null },
    ] as AppOrder['lineItems'];
    expect(orderMatchesRequest(order({ lineItems: more }), request, since)).toBe(false);
    const otherDoses = [
      {
        productId: 1,
        quantity: 2,
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
      },
      { productId: 9, quantity: 1, administration: null },
    ] as AppOrder['lineItems'];
    expect(orderMatchesRequest(order({ lineItems: otherDoses }), request, since)).toBe(false);
  });

  it('accepts an order made at or after `since`, not before', () => {
    expect(orderMatchesRequest(order({ createdAt: '2030-01-01T09:59:30Z' }), request, since)).toBe(
      true,
    );
    expect(orderMatchesRequest(order({ createdAt: '2030-01-01T09:59:29Z' }), request, since)).toBe(
      false,
    );
  });
});
