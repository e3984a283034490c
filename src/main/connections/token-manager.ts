import { createHash } from 'node:crypto';
import { OAuthErrorBody, TokenResponse } from '@shared/api';
import { ApiClientError, isApiClientError, isCredentialsRejected } from '../api/errors';
import {
  errorFromResponse,
  interceptedError,
  notTheApi,
  parseResponse,
  transportError,
} from '../api/http';
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
  /**
   * The credentials were refused (the sign-in server rejected the secret, or the API refused the
   * tokens it issued), missing (the keychain did not give the secret), or accepted again after
   * that: the session holds or resumes sending.
   */
  onCredentials?: (state: 'rejected' | 'missing' | 'accepted', error?: ApiClientError) => void;
}

interface CachedToken {
  token: string;
  expiresAt: number;
  renewAt: number;
  /** Digest of the secret the token was issued for. */
  secret: string;
}

/** A digest of a secret: what is remembered of a rejected one (never the secret itself). */
const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const WHAT = 'the sign-in request';
export const DEFAULT_RENEW_BEFORE_MS = 60_000;
export const DEFAULT_TOKEN_TIMEOUT_MS = 15_000;

/**
 * OAuth 2.0 client credentials (RFC 6749 4.4): one access token in memory, renewed before it
 * expires; concurrent callers share one in-flight renewal. The secret and the token never
 * appear in an error message.
 *
 * A secret the sign-in server rejected (or whose tokens the API refused) is asked with once:
 * until the stored secret changes, every caller gets that rejection at once, and the token
 * endpoint is not asked again (a partner may lock an account after a few refused sign-ins).
 */
export class TokenManager {
  private current: CachedToken | null = null;
  private inflight: Promise<string> | null = null;
  /** The secret last refused (its digest) and the refusal every caller gets while it is stored. */
  private rejected: { secret: string; error: ApiClientError } | null = null;
  /** The keychain did not give the secret at the last read (told once, until it does). */
  private missing = false;
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

  /**
   * The API refused `token` again after a renewal ('token-rejected'): the secret it was issued
   * for counts as rejected, so no new token is asked for with it.
   */
  reject(token: string, error: ApiClientError): void {
    const current = this.current;
    if (current?.token !== token) return;
    this.current = null;
    this.refuse(current.secret, error);
  }

  /** Whether the credentials were refused and the stored secret has not changed since (as known). */
  get credentialsRejected(): boolean {
    return this.rejected !== null;
  }

  private refuse(secret: string, error: ApiClientError): void {
    this.rejected = { secret, error };
    this.options.onCredentials?.('rejected', error);
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
      const secret = await this.options.clientSecret();
      if (this.missing) {
        this.missing = false;
        this.options.onCredentials?.('accepted');
      }
      return secret;
    } catch (error) {
      // Not in the keychain, or the keychain failed: nothing was sent anywhere, and the message
      // says why. Sending holds until the secret can be read again (not a retry per job against
      // a locked keychain).
      const failure =
        error instanceof ApiClientError
          ? error
          : new ApiClientError({
              kind: 'unauthorized',
              reason: 'keychain-unavailable',
              message:
                error instanceof Error ? error.message : 'The client secret could not be read.',
              cause: error,
            });
      const missing =
        failure.reason === 'missing-secret' || failure.reason === 'keychain-unavailable';
      if (missing && !this.missing) {
        this.missing = true;
        this.options.onCredentials?.('missing', failure);
      }
      throw failure;
    }
  }

  private async requestToken(): Promise<CachedToken> {
    const secret = await this.readSecret();
    const secretDigest = digest(secret);
    // Refused before and unchanged since: the same answer, without asking again.
    if (this.rejected?.secret === secretDigest) throw this.rejected.error;
    try {
      const token = await this.askToken(secret, secretDigest);
      if (this.rejected) {
        this.rejected = null;
        this.options.onCredentials?.('accepted');
      }
      return token;
    } catch (error) {
      if (isCredentialsRejected(error)) this.refuse(secretDigest, error as ApiClientError);
      throw error;
    }
  }

  private async askToken(secret: string, secretDigest: string): Promise<CachedToken> {
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
    // A captive portal's page is no answer from the sign-in server (not even a 401 one).
    if (notTheApi(status, headers, text)) throw interceptedError(WHAT);
    if (status >= 200 && status < 300) {
      const parsed = parseResponse(TokenResponse, text, WHAT, status);
      const lifetimeMs = parsed.expires_in * 1000;
      const renewBefore =
        this.options.renewBeforeMs ?? Math.min(DEFAULT_RENEW_BEFORE_MS, lifetimeMs / 10);
      return {
        token: parsed.access_token,
        expiresAt: startedAt + lifetimeMs,
        renewAt: startedAt + lifetimeMs - renewBefore,
        secret: secretDigest,
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
