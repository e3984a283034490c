import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the proxy received it. */
export interface ProxiedRequest {
  method: string;
  /** Path without the query, e.g. /v1/orders. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string;
}

/** An answer as the proxy sends it on (or as the server gave it). */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Rewrites the server's answer to `request` (return it unchanged to pass it on). */
export type AnswerRewrite = (request: ProxiedRequest, answer: ProxiedAnswer) => ProxiedAnswer;

/**
 * What to do with a request instead of passing it on, e.g. a captive portal's sign-in page.
 * `forward`: pass it to the server anyway, then answer with `answer` (the request arrived, the
 * answer was replaced).
 */
export type Intercept = (request: ProxiedRequest) => { answer: ProxiedAnswer; forward?: boolean };

export interface RewritingProxy {
  origin: string;
  baseUrl: string;
  authUrl: string;
  /** Rewrites every answer passed on; null passes them as they are. */
  rewrite: AnswerRewrite | null;
  /** While set, requests are answered by it (a captive portal), not by the server. */
  intercept: Intercept | null;
  /** Every request received, in order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** Headers the proxy does not copy: hop-by-hop, or recomputed for the new body. */
const DROPPED = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function forward(target: string, request: ProxiedRequest): Promise<ProxiedAnswer> {
  const url = `${target}${request.path}${request.query.size > 0 ? `?${request.query}` : ''}`;
  const res = await fetch(url, {
    method: request.method,
    headers: request.headers,
    ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body: request.body }),
    redirect: 'manual',
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, key) => {
    if (!DROPPED.has(key) && key !== 'content-encoding') headers[key] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

function send(res: ServerResponse, answer: ProxiedAnswer): void {
  const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) };
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * An HTTP proxy on a loopback port in front of `target` (a sandbox's origin): the app talks to
 * the proxy as to the server, and the test rewrites what it answers (unknown fields, other
 * shapes, other statuses) or answers in its place (a captive portal), as a real network and a
 * real server may.
 */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const proxy: RewritingProxy = {
    origin: '',
    baseUrl: '',
    authUrl: '',
    rewrite: null,
    intercept: null,
    requests: [],
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://proxy');
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (!DROPPED.has(key) && typeof value === 'string') headers[key] = value;
      }
      const request: ProxiedRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path: url.pathname,
        query: url.searchParams,
        headers,
        body: await readBody(req),
      };
      proxy.requests.push(request);
      const intercepted = proxy.intercept?.(request);
      if (intercepted) {
        if (intercepted.forward) await forward(target, request).catch(() => undefined);
        send(res, intercepted.answer);
        return;
      }
      const answer = await forward(target, request);
      send(res, proxy.rewrite ? proxy.rewrite(request, answer) : answer);
    })().catch((error: unknown) => {
      // The server went away mid-request: the app sees a broken connection, as it would.
      if (!res.headersSent) res.destroy(error instanceof Error ? error : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.origin = `http://127.0.0.1:${port}`;
  proxy.baseUrl = `${proxy.origin}/v1`;
  proxy.authUrl = proxy.origin;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** A captive portal's answer: 200 with an HTML sign-in page, whatever was asked. */
export const PORTAL_PAGE: ProxiedAnswer = {
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  body:
    '<!DOCTYPE html><html><head><title>Clinic Guest Wi-Fi</title></head><body>' +
    '<h1>Welcome to Clinic Guest Wi-Fi</h1><form method="post" action="/login">' +
    '<label>Access code <input name="code"></label><button>Sign in</button></form></body></html>',
};

/** The answer's body as JSON, changed by `change`, with its content type kept. */
export function rewriteJson(
  answer: ProxiedAnswer,
  change: (body: unknown) => unknown,
): ProxiedAnswer {
  if (!(answer.headers['content-type'] ?? '').includes('json') || answer.body === '') return answer;
  return { ...answer, body: JSON.stringify(change(JSON.parse(answer.body))) };
}

/** Adds a field the spec does not name to every object in `value`, however deep. */
export function withUnknownFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withUnknownFields);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = withUnknownFields(v);
  out.xFutureField = { added: 'in a later version', flags: [1, 2] };
  out.x_trace = null;
  return out;
}
