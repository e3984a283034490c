/**
 * Polls `predicate` until it returns a truthy value and resolves with that value; rejects with
 * `message` (a function: read when it fails) (and the last error the predicate threw, if any) after `timeoutMs`. Use it to wait
 * for asynchronous effects (webhooks, fulfillment steps) instead of sleeping a fixed time.
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  timeoutMs = 5_000,
  message: string | (() => string) = 'condition not met',
  intervalMs = 10,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: ${lastError.message}` : '';
      const what = typeof message === 'function' ? message() : message;
      throw new Error(`waitFor timed out after ${timeoutMs} ms: ${what}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
