import { describe, expect, it } from 'vitest';
import { ApiClientError, isOutcomeUnknown } from '@main/api/errors';
import { errorFromResponse, parseRetryAfter, transportError } from '@main/api/http';
import { DEFAULT_BACKOFF, isRetryable, retryDelayMs } from '@main/api/retry';

const err = (
  init: Partial<ConstructorParameters<typeof ApiClientError>[0]> & { kind: ApiClientError['kind'] },
) => new ApiClientError({ message: 'x', ...init });
const withCode = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
const NOW = Date.parse('2030-01-01T00:00:00Z');

describe('transportError', () => {
  it('classifies connection failures as not sent, everything else as sent', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']) {
      expect(transportError(withCode(code), 'x', 1000)).toMatchObject({
        kind: 'network',
        sent: false,
      });
    }
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']) {
      expect(transportError(withCode(code), 'x', 1000)).toMatchObject({
        kind: 'network',
        sent: true,
      });
    }
    expect(transportError(new TypeError('fetch failed'), 'x', 1000)).toMatchObject({
      kind: 'network',
      sent: true,
    });
  });

  it('reads codes inside an AggregateError (several addresses refused)', () => {
    const refused = Object.assign(new Error('a'), { code: 'ECONNREFUSED' });
    const aggregate = new TypeError('fetch failed', {
      cause: new AggregateError([refused, refused]),
    });
    expect(transportError(aggregate, 'x', 1000)).toMatchObject({ kind: 'network', sent: false });
  });

  it('turns an AbortSignal timeout into kind timeout', () => {
    const e = transportError(new DOMException('aborted', 'TimeoutError'), '“list orders”', 15_000);
    expect(e.kind).toBe('timeout');
    expect(e.message).toBe('The server did not answer “list orders” within 15 s.');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('1', NOW)).toBe(1000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter(new Date(NOW + 5_000).toUTCString(), NOW)).toBe(5_000);
    expect(parseRetryAfter(new Date(NOW - 5_000).toUTCString(), NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});

describe('errorFromResponse', () => {
  const headers = new Headers({ 'retry-after': '3' });
  it('maps statuses to kinds', () => {
    const kinds = [400, 403, 404, 409, 413, 429, 500, 502, 503, 504].map(
      (s) => errorFromResponse(s, headers, JSON.stringify({ detail: 'why' }), 'x', NOW).kind,
    );
    expect(kinds).toEqual([
      'bad-request',
      'unauthorized',
      'not-found',
      'conflict',
      'bad-request',
      'rate-limited',
      'server',
      'server',
      'unavailable',
      'server',
    ]);
    expect(errorFromResponse(429, headers, '', 'x', NOW).retryAfterMs).toBe(3000);
    expect(errorFromResponse(429, headers, '', 'x', NOW).message).toBe(
      'The server is receiving too many requests. Try again in 3 s.',
    );
  });

  it('a 422 without the spec body is a bad request, not a crash', () => {
    expect(errorFromResponse(422, new Headers(), 'oops', 'x', NOW).kind).toBe('bad-request');
  });

  it('fieldErrors joins several problems of one field', () => {
    const e = errorFromResponse(
      422,
      new Headers(),
      JSON.stringify({
        detail: [
          { loc: ['body', 'lineItems', 0, 'quantity'], type: 'invalid', msg: 'at least 1' },
          { loc: ['body', 'lineItems', 0, 'quantity'], type: 'type_error' },
          { loc: ['body', 'orderType'], type: 'missing' },
        ],
      }),
      'x',
      NOW,
    );
    expect(e.fieldErrors()).toEqual({
      'lineItems.0.quantity': 'at least 1; wrong type of value',
      orderType: 'required',
    });
  });
});

describe('isOutcomeUnknown', () => {
  it('is true only where the server may have acted', () => {
    expect(isOutcomeUnknown(err({ kind: 'network', sent: true }))).toBe(true);
    expect(isOutcomeUnknown(err({ kind: 'network', sent: false }))).toBe(false);
    expect(isOutcomeUnknown(err({ kind: 'timeout' }))).toBe(true);
    for (const status of [500, 502, 504])
      expect(isOutcomeUnknown(err({ kind: 'server', status }))).toBe(true);
    expect(isOutcomeUnknown(err({ kind: 'server', status: 501 }))).toBe(false);
    expect(isOutcomeUnknown(err({ kind: 'unavailable', status: 503 }))).toBe(false);
    expect(isOutcomeUnknown(err({ kind: 'rate-limited', status: 429 }))).toBe(false);
    for (const kind of [
      'validation',
      'bad-request',
      'not-found',
      'conflict',
      'unauthorized',
    ] as const) {
      expect(isOutcomeUnknown(err({ kind }))).toBe(false);
    }
    expect(isOutcomeUnknown(err({ kind: 'invalid-response', status: 201 }))).toBe(true);
  });
});

describe('retry policy', () => {
  const policy = { ...DEFAULT_BACKOFF, random: () => 1 };
  it('retries idempotent requests on transient failures only', () => {
    const retried = (e: ApiClientError, c: 'idempotent' | 'unsafe') => isRetryable(e, c);
    expect(retried(err({ kind: 'timeout' }), 'idempotent')).toBe(true);
    expect(retried(err({ kind: 'timeout' }), 'unsafe')).toBe(false);
    expect(retried(err({ kind: 'network', sent: true }), 'unsafe')).toBe(false);
    expect(retried(err({ kind: 'network', sent: false }), 'unsafe')).toBe(true);
    expect(retried(err({ kind: 'server', status: 502 }), 'idempotent')).toBe(true);
    expect(retried(err({ kind: 'server', status: 500 }), 'idempotent')).toBe(false);
    expect(retried(err({ kind: 'server', status: 502 }), 'unsafe')).toBe(false);
    expect(retried(err({ kind: 'unavailable' }), 'unsafe')).toBe(true);
    expect(retried(err({ kind: 'rate-limited' }), 'unsafe')).toBe(true);
    expect(retried(err({ kind: 'conflict' }), 'idempotent')).toBe(false);
  });

  it('caps the backoff and refuses a Retry-After longer than it will wait', () => {
    expect(
      [1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, err({ kind: 'timeout' }), policy)),
    ).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(retryDelayMs(1, err({ kind: 'unavailable', retryAfterMs: 3000 }), policy)).toBe(3000);
    expect(retryDelayMs(1, err({ kind: 'unavailable', retryAfterMs: 60_000 }), policy)).toBeNull();
  });
});
