import type { ValidationIssue } from '@shared/api';

/**
 * Every failure of the API client (and of the token manager) is one ApiClientError whose `kind`
 * says what happened. Messages are plain English for the UI and never hold a secret, a token or
 * a query string (search terms may name a patient).
 */
export type ApiErrorKind =
  | 'validation'
  | 'bad-request'
  | 'not-found'
  | 'conflict'
  | 'unauthorized'
  | 'rate-limited'
  | 'unavailable'
  | 'server'
  | 'network'
  | 'timeout'
  | 'invalid-response';

/** Why an 'unauthorized' error happened. */
export type UnauthorizedReason =
  /** The token endpoint rejected the client id or secret (invalid_client). */
  | 'invalid-credentials'
  /** No client secret is stored for the connection. */
  | 'missing-secret'
  /** The keychain could not be read. */
  | 'keychain-unavailable'
  /** The API answered 401 again with a freshly issued token. */
  | 'token-rejected'
  /** 403: the token is valid but may not do this. */
  | 'forbidden';

export interface ApiClientErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** The server's `detail` of a 400, 404 or 409 (or any other error body that has one). */
  detail?: string;
  /** 422: where in the request body each problem is. */
  issues?: readonly ValidationIssue[];
  /** network: false only when the request surely never reached the server. */
  sent?: boolean;
  /**
   * network: something between us and the server answered in its place (a captive portal's
   * sign-in page, a proxy's HTML): the network is not reaching the server.
   */
  intercepted?: boolean;
  reason?: UnauthorizedReason;
  /** invalid-response: which fields of the answer were missing or wrong. */
  problems?: readonly string[];
  cause?: unknown;
}

export class ApiClientError extends Error {
  override readonly name = 'ApiClientError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;
  readonly detail: string | undefined;
  readonly issues: readonly ValidationIssue[];
  readonly sent: boolean | undefined;
  readonly intercepted: boolean;
  readonly reason: UnauthorizedReason | undefined;
  readonly problems: readonly string[];

  constructor(init: ApiClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
    this.issues = init.issues ?? [];
    this.sent = init.kind === 'network' ? (init.sent ?? true) : undefined;
    this.intercepted = init.kind === 'network' && init.intercepted === true;
    this.reason = init.reason;
    this.problems = init.problems ?? [];
  }

  /** 422 problems keyed by the dotted path inside the request body, e.g. "customer.address.zipCode". */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const issue of this.issues) {
      const key = fieldPath(issue.loc);
      const text = issue.msg ?? ISSUE_TEXT[issue.type];
      out[key] = out[key] ? `${out[key]}; ${text}` : text;
    }
    return out;
  }
}

const ISSUE_TEXT: Record<ValidationIssue['type'], string> = {
  missing: 'required',
  type_error: 'wrong type of value',
  invalid: 'not a valid value',
};

/** ['body', 'lineItems', 0, 'quantity'] -> "lineItems.0.quantity". */
export function fieldPath(loc: readonly (string | number)[]): string {
  const rest = loc[0] === 'body' ? loc.slice(1) : loc;
  return rest.join('.');
}

/** The credentials themselves were refused: nothing is sent on them again until they change. */
export const isCredentialsRejected = (error: unknown): boolean =>
  error instanceof ApiClientError &&
  error.kind === 'unauthorized' &&
  (error.reason === 'invalid-credentials' || error.reason === 'token-rejected');

export function isApiClientError<K extends ApiErrorKind>(
  error: unknown,
  kind?: K,
): error is ApiClientError & { kind: K } {
  return error instanceof ApiClientError && (kind === undefined || error.kind === kind);
}

/**
 * True when a request may have taken effect although the caller saw a failure: the server may
 * have committed a create whose answer never arrived. Such a create must be reconciled by
 * reading the server before it is sent again. False when the server surely did not act: any
 * 4xx (including 429), a 503, and a network error before the request was sent. An error that
 * is not an ApiClientError (a bug) counts as unknown: reading the server is always safe.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiClientError)) return true;
  switch (error.kind) {
    case 'network':
      return error.sent !== false;
    case 'timeout':
      return true;
    case 'server':
      // 501 Not Implemented: the server did not act. 500, 502, 504 and the rest: it may have.
      return error.status !== 501;
    case 'invalid-response':
      // A 2xx whose body we could not read: the server did act, we do not know the result.
      return true;
    default:
      return false;
  }
}
