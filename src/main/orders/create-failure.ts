import { isApiClientError, isOutcomeUnknown } from '../api/errors';
import type { BatchItemError } from '../store';

/** What a failed create means for its batch item. */
export type CreateFailure =
  /** The server refused it for a reason of the request: final. */
  | { kind: 'rejected'; error: BatchItemError }
  /** The server surely did not act (429, 503, not sent, credentials): send again later. */
  | { kind: 'retry'; error: BatchItemError; retryAfterMs: number | undefined }
  /** It may have committed: reconcile by reading the server before any resend. */
  | { kind: 'in-doubt'; error: BatchItemError };

const transport = (error: unknown): BatchItemError => ({
  kind: 'transport',
  message: error instanceof Error ? error.message : String(error),
});

export function classifyCreateFailure(error: unknown): CreateFailure {
  if (isOutcomeUnknown(error)) return { kind: 'in-doubt', error: transport(error) };
  if (!isApiClientError(error)) return { kind: 'in-doubt', error: transport(error) };
  switch (error.kind) {
    case 'validation':
      return { kind: 'rejected', error: { kind: 'validation', issues: [...error.issues] } };
    case 'rate-limited':
    case 'unavailable':
    case 'network': // isOutcomeUnknown was false: not sent
    case 'unauthorized': // the server did not act; the credentials need fixing, the item waits
      return { kind: 'retry', error: transport(error), retryAfterMs: error.retryAfterMs };
    default:
      // 400, 404, 409, 413, 501 ...: the server answered and did not create the order.
      return {
        kind: 'rejected',
        error: { kind: 'detail', status: error.status ?? 0, detail: error.detail ?? error.message },
      };
  }
}

export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 60_000;

/**
 * Wait before attempt `attempts + 1`: exponential (1 s, 2 s, 4 s ... up to 60 s) with equal
 * jitter (half fixed, half random, so retries of many items spread but never fire at once), and
 * never less than the server's Retry-After.
 */
export function retryDelayMs(
  attempts: number,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  const delay = Math.floor(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(delay, retryAfterMs ?? 0);
}
