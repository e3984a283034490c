import { z } from 'zod';
import { ErrorDetail, ValidationErrorBody } from '@shared/api';
import { ApiClientError, fieldPath } from './errors';

/**
 * Error codes that prove a request never reached the server: the connection was never made.
 * UND_ERR_CONNECT_TIMEOUT is undici's connect-phase timeout. Everything else (resets, closed
 * sockets, read timeouts) may come after the server received the request.
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const CODE_TEXT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed',
  EPIPE: 'connection closed',
};

/** Error codes found along an error's cause chain (and inside AggregateErrors). */
function errorCodes(error: unknown, depth = 0): string[] {
  if (depth > 5 || typeof error !== 'object' || error === null) return [];
  const e = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => errorCodes(x, depth + 1)) : [];
  return [...own, ...nested, ...errorCodes(e.cause, depth + 1)];
}

function isTimeout(error: unknown): boolean {
  for (
    let e = error, i = 0;
    typeof e === 'object' && e !== null && i < 5;
    e = (e as { cause?: unknown }).cause, i++
  ) {
    if ((e as { name?: unknown }).name === 'TimeoutError') return true;
  }
  return false;
}

/** A thrown fetch (or body read) failure as a 'timeout' or 'network' error. */
export function transportError(error: unknown, what: string, timeoutMs: number): ApiClientError {
  if (error instanceof ApiClientError) return error;
  if (isTimeout(error)) {
    return new ApiClientError({
      kind: 'timeout',
      message: `The server did not answer ${what} within ${Math.round(timeoutMs / 100) / 10} s.`,
      cause: error,
    });
  }
  const codes = errorCodes(error);
  const sent = !(codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c)));
  const reason = codes.map((c) => CODE_TEXT[c]).find(Boolean);
  return new ApiClientError({
    kind: 'network',
    sent,
    message: sent
      ? `The connection to the server broke before it answered ${what}${reason ? ` (${reason})` : ''}.`
      : `Could not connect to the server${reason ? ` (${reason})` : ''}. Check the network and the connection's address.`,
    cause: error,
  });
}

const isJsonType = (type: string): boolean => type === 'application/json' || type.endsWith('+json');

/**
 * Whether an answer is not the API's: something between us and the server answered in its
 * place. A captive portal (clinic guest Wi-Fi) answers any request with its sign-in page, often
 * 200 or after a redirect; a proxy answers with its own HTML. Such an answer says nothing about
 * the server: the network is not reaching it. Not the API's: 511 (Network Authentication
 * Required); an HTML body (by content type or by its first tag), except 429 and 503, whose
 * meaning (not now, try later) stands whoever says it; a 2xx with a body whose content type is
 * not JSON.
 */
export function notTheApi(status: number, headers: Headers, text: string): boolean {
  if (status === 511) return true;
  const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const html =
    type === 'text/html' ||
    type === 'application/xhtml+xml' ||
    /^\s*<(?:!doctype\b|html\b|head\b|body\b|\?xml\b)/i.test(text);
  if (html) return status !== 429 && status !== 503;
  return status >= 200 && status < 300 && text.trim() !== '' && type !== '' && !isJsonType(type);
}

/** The error for an answer that is not the API's (notTheApi): a network failure, perhaps sent. */
export function interceptedError(what: string): ApiClientError {
  return new ApiClientError({
    kind: 'network',
    sent: true,
    intercepted: true,
    message: `The network is not reaching the server: something else answered ${what} (an answer that is not the API's, such as a Wi-Fi sign-in page).`,
  });
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function json(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** A non-2xx answer as a typed error carrying the server's detail or 422 locations. */
export function errorFromResponse(
  status: number,
  headers: Headers,
  bodyText: string,
  what: string,
  nowMs: number,
): ApiClientError {
  const body = json(bodyText);
  const detailBody = ErrorDetail.safeParse(body);
  const detail = detailBody.success ? detailBody.data.detail : undefined;
  const retryAfterMs = parseRetryAfter(headers.get('retry-after'), nowMs);
  const base = { status, ...(detail === undefined ? {} : { detail }) };

  if (status === 422) {
    const validation = ValidationErrorBody.safeParse(body);
    if (validation.success) {
      const issues = validation.data.detail;
      const fields = issues.map(
        (i) => `${fieldPath(i.loc) || 'body'}${i.msg ? ` (${i.msg})` : ` (${i.type})`}`,
      );
      return new ApiClientError({
        kind: 'validation',
        status,
        issues,
        message: `Some fields are not valid: ${fields.join('; ')}.`,
      });
    }
  }
  switch (status) {
    case 401:
      return new ApiClientError({
        ...base,
        kind: 'unauthorized',
        reason: 'token-rejected',
        message:
          'The server rejected the access token even after a new one was issued. Check the connection.',
      });
    case 403:
      return new ApiClientError({
        ...base,
        kind: 'unauthorized',
        reason: 'forbidden',
        message: detail ?? `This connection is not allowed to do ${what}.`,
      });
    case 404:
      return new ApiClientError({
        ...base,
        kind: 'not-found',
        message: detail ?? `Not found: ${what}.`,
      });
    case 409:
      return new ApiClientError({
        ...base,
        kind: 'conflict',
        message: detail ?? 'The request conflicts with the current state on the server.',
      });
    case 429:
      return new ApiClientError({
        ...base,
        kind: 'rate-limited',
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        message: `The server is receiving too many requests. Try again${retryAfterMs === undefined ? ' shortly' : ` in ${seconds(retryAfterMs)} s`}.`,
      });
    case 503:
      return new ApiClientError({
        ...base,
        kind: 'unavailable',
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        message: `The service is temporarily unavailable. Try again${retryAfterMs === undefined ? ' shortly' : ` in ${seconds(retryAfterMs)} s`}.`,
      });
  }
  if (status >= 500) {
    return new ApiClientError({
      ...base,
      kind: 'server',
      message: `The server failed while handling ${what} (HTTP ${status}).`,
    });
  }
  return new ApiClientError({
    ...base,
    kind: 'bad-request',
    message: detail ?? `The server rejected ${what} (HTTP ${status}).`,
  });
}

/** Parses a 2xx body with a shared schema; a mismatch is 'invalid-response' naming each field. */
export function parseResponse<S extends z.ZodType>(
  schema: S,
  bodyText: string,
  what: string,
  status: number,
): z.output<S> {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new ApiClientError({
      kind: 'invalid-response',
      status,
      problems: ['the body is not JSON'],
      message: `The server's answer to ${what} is not JSON.`,
    });
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  const shown =
    problems.slice(0, 5).join('; ') +
    (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
  throw new ApiClientError({
    kind: 'invalid-response',
    status,
    problems,
    message: `The server's answer to ${what} does not have the expected shape: ${shown}.`,
  });
}

/** An item of a list answer that did not have the expected shape: left out, and said why. */
export interface SkippedItem {
  /** Its position in the page. */
  index: number;
  /** Its `id`, when that much could be read. */
  id: string | null;
  problems: string[];
}

/** A list answer read item by item: the items that parsed, the page's cursor, what was left out. */
export interface ListPage<T> {
  items: T[];
  cursor: string | null;
  skipped: SkippedItem[];
}

/**
 * A list answer `{[key]: [...], cursor}` read item by item: the envelope must have its shape (else
 * 'invalid-response', as any answer; a paged list's cursor is required, since a missing one
 * would end a walk early), but one item that does not parse is left out and reported (its id
 * when readable, and its problems), so that one odd order never hides a page.
 */
export function parseList<S extends z.ZodType>(
  key: string,
  item: S,
  bodyText: string,
  what: string,
  status: number,
  options: { paged: boolean } = { paged: true },
): ListPage<z.output<S>> {
  const envelope = z.object({
    [key]: z.array(z.unknown()),
    cursor: options.paged ? z.string().nullable() : z.unknown().optional(),
  });
  const body = parseResponse(envelope, bodyText, what, status);
  const items: z.output<S>[] = [];
  const skipped: SkippedItem[] = [];
  (body[key] as unknown[]).forEach((raw, index) => {
    const result = item.safeParse(raw);
    if (result.success) {
      items.push(result.data);
      return;
    }
    const rawId = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : null;
    skipped.push({
      index,
      id: typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : null,
      problems: result.error.issues.map((i) => `${i.path.join('.') || '(item)'}: ${i.message}`),
    });
  });
  return { items, cursor: typeof body.cursor === 'string' ? body.cursor : null, skipped };
}

/** "order ord_1 (status: ...)", for a log line or a report; problems cut to the first three. */
export function describeSkipped(kind: string, skipped: SkippedItem): string {
  const name =
    skipped.id === null ? `${kind} at position ${skipped.index + 1}` : `${kind} ${skipped.id}`;
  const shown = skipped.problems.slice(0, 3).join('; ');
  return `${name} could not be read (${shown}${skipped.problems.length > 3 ? '; …' : ''})`;
}
