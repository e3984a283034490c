import { OAuthErrorBody, TokenResponse } from '../../shared/api';
import { ApiClientError, isApiClientError } from '../api/errors';
import { errorFromResponse, parseResponse, transportError } from '../api/http';
import { systemClock, type Clock } from '../clock';

export interface TokenManagerOptions {
  /** `${authUrl}/oauth2/token` */
  tokenUrl: string;
  clientId: string;
  /** Read when a token is needed (from the keychain), never kept by the manager. */
  clientSecret: () => Promise<string>;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Renew this long before expiry. Default: 60 s or 10% of the token's lifetime, whichever is smaller. */
  renewBeforeMs?: number;
  /** Timeout of one token request. Default 15 s. */
  timeoutMs?: number;
}

interface CachedToken {
  token: string;
  expiresAt: number;
  renewAt: number;
}

const WHAT = 'the sign-in request';
export const DEFAULT_RENEW_BEFORE_MS = 60_000;
export const DEFAULT_TOKEN_TIMEOUT_MS = 15_000;

/**
 * OAuth 2.0 client credentials (RFC 6749 4.4): one access token in memory, renewed before it
 * expires; concurrent callers share one in-flight renewal. The secret and the token never
 * appear in an error message.
 */
export class TokenManager {
  private current: CachedToken | null = null;
  private inflight: Promise<string> | null = null;
  private readonly fetch: typeof fetch;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(private readonly options: TokenManagerOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.clock = options.clock ?? systemClock;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TOKEN_TIMEOUT_MS;
  }

  /** A token valid for a while yet: the cached one, or a new one. */
  getToken(): Promise<string> {
    const cached = this.current;
    if (cached && this.clock.now() < cached.renewAt) return Promise.resolve(cached.token);
    this.inflight ??= this.renew(cached).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** Forgets `token` if it is the current one (the API answered 401 with it). */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = null;
  }

  /** Forgets the cached token (the connection changed or was removed). */
  clear(): void {
    this.current = null;
  }

  private async renew(previous: CachedToken | null): Promise<string> {
    try {
      const next = await this.requestToken();
      this.current = next;
      return next.token;
    } catch (error) {
      // Renewing early failed for a transient reason: the old token still works until it expires.
      const stillValid =
        previous && this.current === previous && this.clock.now() < previous.expiresAt;
      if (stillValid && isApiClientError(error) && isTransient(error)) {
        return previous.token;
      }
      throw error;
    }
  }

  private async readSecret(): Promise<string> {
    try {
      return await this.options.clientSecret();
    } catch (error) {
      if (error instanceof ApiClientError) throw error;
      // The keychain failed: nothing was sent anywhere, and the message says why.
      throw new ApiClientError({
        kind: 'unauthorized',
        reason: 'keychain-unavailable',
        message: error instanceof Error ? error.message : 'The client secret could not be read.',
        cause: error,
      });
    }
  }

  private async requestToken(): Promise<CachedToken> {
    const secret = await this.readSecret();
    const startedAt = this.clock.now();
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      client_secret: secret,
    });
    let status: number;
    let headers: Headers;
    let text: string;
    try {
      const res = await this.fetch(this.options.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.status;
      headers = res.headers;
      text = await res.text();
    } catch (error) {
      throw transportError(error, WHAT, this.timeoutMs);
    }
    if (status >= 200 && status < 300) {
      const parsed = parseResponse(TokenResponse, text, WHAT, status);
      const lifetimeMs = parsed.expires_in * 1000;
      const renewBefore =
        this.options.renewBeforeMs ?? Math.min(DEFAULT_RENEW_BEFORE_MS, lifetimeMs / 10);
      return {
        token: parsed.access_token,
        expiresAt: startedAt + lifetimeMs,
        renewAt: startedAt + lifetimeMs - renewBefore,
      };
    }
    throw tokenEndpointError(status, headers, text, secret, this.clock.now());
  }
}

/** A failure that says nothing about the credentials: the old token may still be used. */
const TRANSIENT_KINDS = new Set<ApiClientError['kind']>([
  'network',
  'timeout',
  'rate-limited',
  'unavailable',
  'server',
]);
function isTransient(error: ApiClientError): boolean {
  return TRANSIENT_KINDS.has(error.kind);
}

function tokenEndpointError(
  status: number,
  headers: Headers,
  text: string,
  secret: string,
  nowMs: number,
) {
  const redact = (s: string) => (secret ? s.split(secret).join('***') : s);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const oauth = OAuthErrorBody.safeParse(body);
  if (
    (oauth.success && oauth.data.error === 'invalid_client') ||
    (status === 401 && !oauth.success)
  ) {
    return new ApiClientError({
      kind: 'unauthorized',
      reason: 'invalid-credentials',
      status,
      message:
        "The client id or secret was rejected by the sign-in server. Check the connection's credentials.",
    });
  }
  if (oauth.success) {
    const description =
      oauth.data.error_description === undefined ? undefined : redact(oauth.data.error_description);
    return new ApiClientError({
      kind: 'bad-request',
      status,
      detail: oauth.data.error,
      message: `The sign-in server refused the request (${oauth.data.error})${description ? `: ${description}` : ''}.`,
    });
  }
  return errorFromResponse(status, headers, redact(text), WHAT, nowMs);
}
