export const RETRY_BASE_MS = 1_000;
export const RETRY_MAX_MS = 60_000;

/**
 * Wait before attempt `attempts + 1`: exponential (1 s, 2 s, 4 s ... up to 60 s) with equal
 * jitter (half fixed, half random, so retries of many jobs spread but never fire at once), and
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
