import { isTrustedRendererUrl, type RendererLocation } from './renderer-location';

/**
 * The renderer's Content-Security-Policy, sent by main as a response header: with every app://
 * response (app-protocol.ts) and, for the dev server, by the session's header hook. The page
 * carries the same policy in its meta tag (src/renderer/index.html), which is what the browser
 * host serves; the directives a meta tag cannot carry (frame-ancestors) come with the header.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Response headers with our policy replacing any Content-Security-Policy already there. */
export function withContentSecurityPolicy(
  headers: Record<string, string[]> | undefined,
  policy: string = CONTENT_SECURITY_POLICY,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [policy];
  return out;
}

/** Only http and https links leave the app, and only to the system browser. */
export function isExternalHttpUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  try {
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The one permission the window gets: writing text to the clipboard (the Settings screen copies
 * the webhook secret with navigator.clipboard, which Electron gates as 'clipboard-sanitized-write'),
 * and only for our renderer's main frame. Everything else (camera, notifications from the page,
 * geolocation, clipboard reads, ...) is denied.
 */
export function isPermissionAllowed(
  permission: string,
  request: { requestingUrl?: string | undefined; isMainFrame: boolean },
  location: RendererLocation,
): boolean {
  return (
    permission === 'clipboard-sanitized-write' &&
    request.isMainFrame &&
    isTrustedRendererUrl(request.requestingUrl, location)
  );
}
