import { extname, isAbsolute, join, relative } from 'node:path';

/**
 * The built renderer is served from `app://order-desk/...` by main's own protocol handler rather
 * than from file:// (the Electron security checklist's "avoid file://"): the page gets a real
 * origin of its own, no file:// privileges, and only the files of out/renderer can be read
 * through it.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'order-desk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window loads; the renderer routes with #hashes after it. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * What `protocol.registerSchemesAsPrivileged` is given, before the app is ready:
 * - standard: a real origin (`app://order-desk`), relative URLs resolve, web storage works;
 * - secure: a secure context, as file:// was (navigator.clipboard needs one);
 * - supportFetchAPI: fetch() of our own files works (same origin only: not corsEnabled, so no
 *   other origin may read them). No bypassCSP, no service workers, no streaming.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
} as const;

/** The file types the renderer's build is made of; anything else is not served. */
export const APP_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

export type AppUrlResolution =
  { ok: true; filePath: string; contentType: string } | { ok: false; reason: string };

const refuse = (reason: string): AppUrlResolution => ({ ok: false, reason });

/**
 * The file under `rootDir` that an app:// URL names, or why it names none. Pure: nothing is read.
 *
 * Only `app://order-desk/<segments>` with no credentials or port; every segment decoded once
 * and refused when empty, `.`/`..`, hidden (a leading dot), or holding a slash, backslash, colon
 * (a drive or a Windows stream) or NUL; an encoded slash or backslash (`%2F`, `%5C`) is refused
 * before decoding, so no spelling of a path climbs out of the root. Only the known file types
 * are served; the query and #hash are ignored (the renderer routes with the hash).
 */
export function resolveAppUrl(url: string, rootDir: string): AppUrlResolution {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('not a URL');
  }
  if (parsed.protocol !== `${APP_SCHEME}:`) return refuse('another scheme');
  if (parsed.hostname !== APP_HOST || parsed.port !== '') return refuse('another host');
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials in the URL');

  const rawPath = parsed.pathname;
  if (!rawPath.startsWith('/')) return refuse('not an absolute path');
  if (rawPath.includes('\\') || /%(2f|5c|00)/i.test(rawPath))
    return refuse('an encoded or back slash in the path');

  const segments: string[] = [];
  for (const raw of rawPath.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return refuse('a malformed escape in the path');
    }
    if (segment === '' || segment.startsWith('.')) return refuse('an empty, dot or hidden segment');
    if (/[/\\:\0]/.test(segment)) return refuse('a separator, colon or NUL in a segment');
    segments.push(segment);
  }

  const contentType = APP_CONTENT_TYPES[extname(segments[segments.length - 1]!).toLowerCase()];
  if (!contentType) return refuse('not a file type of the renderer');

  const filePath = join(rootDir, ...segments);
  const inside = relative(rootDir, filePath);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    return refuse('outside the renderer');
  return { ok: true, filePath, contentType };
}

export interface AppProtocolDeps {
  /** Absolute path of the built renderer (out/renderer). */
  rootDir: string;
  /** Reads a whole file (fs.promises.readFile; it also reads inside the app's asar archive). */
  readFile(path: string): Promise<Uint8Array>;
  /** Sent as a header with every response (the page also carries it in a meta tag). */
  contentSecurityPolicy: string;
  /** Told about refusals and failures, for the log. */
  onRefused?(url: string, reason: string): void;
}

const NOT_FOUND_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/**
 * The body of `protocol.handle('app', ...)`: GET (or HEAD) of a file of the renderer, with its
 * content type, our Content-Security-Policy and nosniff; 404 for anything else it could name,
 * 405 for other methods. Takes a fetch Request and answers a fetch Response, so plain Node runs it.
 */
export function createAppProtocolHandler(deps: AppProtocolDeps) {
  const headers = (contentType: string): Record<string, string> => ({
    'Content-Type': contentType,
    'Content-Security-Policy': deps.contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  });
  const plain = (status: number, text: string) =>
    new Response(text, { status, headers: headers('text/plain; charset=utf-8') });

  return async (request: Request): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      deps.onRefused?.(request.url, `method ${request.method}`);
      return plain(405, 'Method not allowed');
    }
    const resolved = resolveAppUrl(request.url, deps.rootDir);
    if (!resolved.ok) {
      deps.onRefused?.(request.url, resolved.reason);
      return plain(404, 'Not found');
    }
    let body: Uint8Array;
    try {
      body = await deps.readFile(resolved.filePath);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string' && NOT_FOUND_CODES.has(code)) {
        deps.onRefused?.(request.url, 'no such file');
        return plain(404, 'Not found');
      }
      deps.onRefused?.(request.url, `read failed (${String(code ?? error)})`);
      return plain(500, 'The file could not be read');
    }
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: { ...headers(resolved.contentType), 'Content-Length': String(body.byteLength) },
    });
  };
}
