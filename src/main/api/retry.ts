import type { ApiClientError } from './errors';

/**
 * How a request may be repeated:
 * - 'idempotent' (GET, PUT, DELETE, PATCH): sending it twice leaves the server as sending it once;
 *   retried on network errors, timeouts, 429, 502, 503 and 504.
 * - 'unsafe' (POST /orders, POST /protocols, cancel, rotate secret): repeating it after the server
 *   may have acted could act twice. Retried only when the server surely did not act: an explicit
 *   429 or 503 answer, or a network error before the request was sent. (401 is handled apart.)
 */
export type RetryClass = 'idempotent' | 'unsafe';

export interface BackoffPolicy {
  /** Retries after the first attempt (401 renewal not counted). */
  retries: number;
  /** Ceiling of the first backoff; it doubles each retry up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller, with retryAfterMs. */
  maxRetryAfterMs: number;
  random: () => number;
}

export const DEFAULT_BACKOFF = {
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 20_000,
} as const;

const RETRYABLE_SERVER_STATUSES = new Set([502, 504]);

/** Whether this failure may be retried for a request of this class (budget aside). */
export function isRetryable(error: ApiClientError, retryClass: RetryClass): boolean {
  switch (error.kind) {
    case 'rate-limited':
    case 'unavailable':
      return true;
    case 'network':
      return retryClass === 'idempotent' || error.sent === false;
    case 'timeout':
      return retryClass === 'idempotent';
    case 'server':
      return (
        retryClass === 'idempotent' &&
        error.status !== undefined &&
        RETRYABLE_SERVER_STATUSES.has(error.status)
      );
    default:
      return false;
  }
}

/**
 * Delay before retry number `retry` (1-based): exponential backoff with full jitter (a uniform
 * random wait between 0 and the ceiling), but never less than the server's Retry-After.
 * Null when the Retry-After is longer than the policy is willing to wait.
 */
export function retryDelayMs(
  retry: number,
  error: ApiClientError,
  policy: BackoffPolicy,
): number | null {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.floor(policy.random() * ceiling);
  if (error.retryAfterMs === undefined) return jittered;
  if (error.retryAfterMs > policy.maxRetryAfterMs) return null;
  return Math.max(error.retryAfterMs, jittered);
}
