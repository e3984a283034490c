import { z } from 'zod';

/**
 * A connection to an Order Fulfillment API: an environment and the client id used there. The
 * client secret is not part of it (it lives in the OS keychain), so this record is safe to store
 * in SQLite and to show in the UI; it crosses IPC as is.
 */
export const CONNECTION_KINDS = ['embedded', 'partner-sandbox', 'production'] as const;
export const ConnectionKind = z.enum(CONNECTION_KINDS);
export type ConnectionKind = z.infer<typeof ConnectionKind>;

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** An absolute http(s) URL without credentials, query or fragment; plain http only on loopback. */
const ServiceUrl = z
  .string()
  .trim()
  .pipe(z.url({ protocol: /^https?$/, error: 'an absolute http or https URL' }))
  .superRefine((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return; // reported by z.url()
    }
    if (url.username || url.password)
      ctx.addIssue({ code: 'custom', message: 'must not contain a user name or password' });
    if (url.search || url.hash)
      ctx.addIssue({ code: 'custom', message: 'must not contain a query or fragment' });
    if (url.protocol === 'http:' && !LOOPBACK_HOST.test(url.hostname)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must use https (plain http only for a server on this computer)',
      });
    }
  });

const trimPath = (url: URL) => url.pathname.replace(/\/+$/, '');

/** "https://api.example.com", ".../v1" and ".../v1/" all become "https://api.example.com/v1". */
export function normaliseBaseUrl(raw: string): string {
  const url = new URL(raw);
  const path = trimPath(url);
  return `${url.origin}${/\/v1$/.test(path) ? path : `${path}/v1`}`;
}

/** The auth server's address without a trailing slash (a pasted ".../oauth2/token" is trimmed too). */
export function normaliseAuthUrl(raw: string): string {
  const url = new URL(raw);
  return `${url.origin}${trimPath(url).replace(/\/oauth2\/token$/, '')}`;
}

/**
 * A connection: an environment (the embedded sandbox, a partner sandbox or production) and the
 * client id used there. The client secret is not part of it: it lives in the keychain under
 * secretAccount(connection). This record is safe to store in SQLite and to show in the UI.
 */
export const Connection = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "-" and "_" only (at most 64)'),
  kind: ConnectionKind,
  label: z.string().trim().min(1, 'required').max(100, 'at most 100 characters'),
  /** {base_url}, normalised to end in /v1 with no trailing slash. */
  baseUrl: ServiceUrl.transform(normaliseBaseUrl),
  /** {auth_url}; the token endpoint is tokenUrl(connection). */
  authUrl: ServiceUrl.transform(normaliseAuthUrl),
  clientId: z.string().trim().min(1, 'required').max(200, 'at most 200 characters'),
});
export type Connection = z.output<typeof Connection>;
export type ConnectionInput = z.input<typeof Connection>;
