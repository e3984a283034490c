import { isApiClientError, isCredentialsRejected, isOutcomeUnknown } from '../api/errors';
import type { JobError, Outcome } from './job-model';

const transport = (error: unknown): JobError => ({
  kind: 'transport',
  message: error instanceof Error ? error.message : String(error),
});

/**
 * What a failed write to the server means for its job, whatever the kind:
 * - it may have committed (timeout, reset, dropped answer, 5xx but 501, an unreadable 2xx, a bug):
 *   in doubt, reconciled by reading the server before anything is sent again;
 * - the server surely did not act (429, 503, not sent, credentials to fix): queued again after a
 *   backoff that honours Retry-After; when the credentials were refused, queued due at once: the
 *   session holds every job until a new secret is entered, and then they go without waiting;
 * - the server refused it for a reason of the request (422, 400, 404, 409, 413, 501...): rejected.
 */
export function writeFailure(error: unknown): Exclude<Outcome, { to: 'done' }> {
  if (isOutcomeUnknown(error) || !isApiClientError(error))
    return { to: 'in_doubt', error: transport(error) };
  if (isCredentialsRejected(error)) return { to: 'queued', retry: 'now', error: transport(error) };
  switch (error.kind) {
    case 'validation':
      return { to: 'rejected', error: { kind: 'validation', issues: [...error.issues] } };
    case 'rate-limited':
    case 'unavailable':
    case 'network': // isOutcomeUnknown was false: not sent
    case 'unauthorized': // the server did not act; the credentials need fixing, the job waits
      return {
        to: 'queued',
        retry: 'backoff',
        error: transport(error),
        ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
      };
    default:
      return {
        to: 'rejected',
        error: { kind: 'detail', status: error.status ?? 0, detail: error.detail ?? error.message },
      };
  }
}

/** A read before a write failed: nothing was written, so the job is simply tried again later. */
export function readFailure(error: unknown): Extract<Outcome, { to: 'queued' }> {
  if (isCredentialsRejected(error)) return { to: 'queued', retry: 'now', error: transport(error) };
  return {
    to: 'queued',
    retry: 'backoff',
    error: transport(error),
    ...(isApiClientError(error) && error.retryAfterMs !== undefined
      ? { retryAfterMs: error.retryAfterMs }
      : {}),
  };
}
