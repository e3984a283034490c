import { systemClock, type Clock } from '../clock';
import { ApiClientError, isApiClientError, isOutcomeUnknown } from './errors';
import { errorFromResponse, interceptedError, notTheApi, transportError } from './http';
import {
  DEFAULT_BACKOFF,
  isRetryable,
  retryDelayMs,
  type BackoffPolicy,
  type RetryClass,
} from './retry';

/** Where the transport gets its bearer token (connections/token-manager.ts is the app's). */
export interface TokenSource {
  getToken(): Promise<string>;
  /** The API answered 401 with `token`: forget it. */
  invalidate(token: string): void;
  /** The API refused `token` again after a renewal: its secret counts as rejected. */
  reject?(token: string, error: ApiClientError): void;
}

export interface TransportOptions {
  /** {base_url}, e.g. https://api.example.com/v1 */
  baseUrl: string;
  tokens: TokenSource;
  fetch?: typeof fetch;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** Per attempt, from sending until the whole answer is read. Default 15 s. */
  timeoutMs?: number;
  /** Retries after the first attempt (the 401 renewal is not counted). Default 3. */
  retries?: number;
  random?: () => number;
  /**
   * true whenever the API answers; false on a network error or timeout ('network'), or when the
   * answer is not the API's ('not-api': a captive portal's page, see notTheApi).
   */
  onReachability?: (reachable: boolean, reason?: UnreachableReason) => void;
}

/** Why the server is not reachable: no answer, or an answer that is not the API's. */
export type UnreachableReason = 'network' | 'not-api';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Query = Record<string, string | number | undefined | null>;

export interface RequestSpec<T> {
  method: Method;
  /** Relative to the base URL, starting with "/"; path parameters already encoded. */
  path: string;
  query?: Query;
  body?: unknown;
  retry: RetryClass;
  /** Names the operation in error messages, e.g. "create order". */
  label: string;
  parse: (text: string, status: number, label: string) => T;
}

export type Send = <T>(spec: RequestSpec<T>) => Promise<T>;

export const DEFAULT_TIMEOUT_MS = 15_000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A 401: carries the token that was refused so that exactly that one is invalidated. */
class TokenRefused {
  constructor(
    readonly token: string,
    readonly error: ApiClientError,
  ) {}
}

/**
 * Sends one operation: bearer token, timeout, typed errors, the 401 renewal and the retry
 * policy of retry.ts.
 */
export function createTransport(options: TransportOptions): Send {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? realSleep;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = options.baseUrl.replace(/\/+$/, '');
  const policy: BackoffPolicy = {
    ...DEFAULT_BACKOFF,
    retries: options.retries ?? DEFAULT_BACKOFF.retries,
    random: options.random ?? Math.random,
  };
  const reach = (reachable: boolean, reason: UnreachableReason = 'network') => {
    try {
      if (reachable) options.onReachability?.(true);
      else options.onReachability?.(false, reason);
    } catch {
      // A listener's failure is not the request's failure.
    }
  };

  async function token(): Promise<string> {
    try {
      return await options.tokens.getToken();
    } catch (error) {
      if (!isApiClientError(error) || !isOutcomeUnknown(error)) throw error;
      // The API request itself was never sent, whatever happened to the token request.
      if (error.kind === 'network' || error.kind === 'timeout')
        reach(false, error.intercepted ? 'not-api' : 'network');
      throw new ApiClientError({
        kind: 'network',
        sent: false,
        intercepted: error.intercepted,
        message: error.message,
        cause: error,
      });
    }
  }

  async function attempt<T>(spec: RequestSpec<T>): Promise<T> {
    const bearer = await token();
    const url = new URL(base + spec.path);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers: Record<string, string> = {
      authorization: `Bearer ${bearer}`,
      accept: 'application/json',
    };
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, {
        method: spec.method,
        headers,
        ...(spec.body === undefined ? {} : { body: JSON.stringify(spec.body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      reach(false);
      throw transportError(error, `“${spec.label}”`, timeoutMs);
    }
    try {
      text = await res.text();
    } catch (error) {
      reach(true);
      throw transportError(error, `“${spec.label}”`, timeoutMs);
    }
    if (notTheApi(res.status, res.headers, text)) {
      // Something else answered (a captive portal): the server was not reached, or its answer
      // was replaced; a write may still have arrived, so its outcome is unknown.
      reach(false, 'not-api');
      throw interceptedError(`“${spec.label}”`);
    }
    reach(true);
    if (res.status === 401) {
      throw new TokenRefused(
        bearer,
        errorFromResponse(401, res.headers, text, `“${spec.label}”`, clock.now()),
      );
    }
    if (res.status < 200 || res.status >= 300) {
      throw errorFromResponse(res.status, res.headers, text, `“${spec.label}”`, clock.now());
    }
    return spec.parse(text, res.status, `“${spec.label}”`);
  }

  return async function send<T>(spec: RequestSpec<T>): Promise<T> {
    let renewed = false;
    let retry = 0;
    for (;;) {
      try {
        return await attempt(spec);
      } catch (thrown) {
        if (thrown instanceof TokenRefused && !renewed) {
          // The server did not act on a request it refused: renew once and send it again.
          renewed = true;
          options.tokens.invalidate(thrown.token);
          continue;
        }
        // Refused again: the credentials behind this token are not accepted (token-rejected).
        if (thrown instanceof TokenRefused) options.tokens.reject?.(thrown.token, thrown.error);
        const error = thrown instanceof TokenRefused ? thrown.error : thrown;
        if (!isApiClientError(error) || retry >= policy.retries || !isRetryable(error, spec.retry))
          throw error;
        retry++;
        const delay = retryDelayMs(retry, error, policy);
        if (delay === null) throw error;
        await sleep(delay);
      }
    }
  };
}
