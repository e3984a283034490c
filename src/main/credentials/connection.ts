import { z } from 'zod';
import { ApiClientError } from '../api/errors';
import type { CredentialStore } from './keychain';
import { TokenManager, type TokenManagerOptions } from './token-manager';

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

export const tokenUrl = (connection: Pick<Connection, 'authUrl'>): string =>
  `${connection.authUrl}/oauth2/token`;

/** Keychain account of a connection's client secret: a new client id gets a new entry. */
export const secretAccount = (connection: Pick<Connection, 'id' | 'clientId'>): string =>
  `client-secret:${connection.id}:${connection.clientId}`;

type SecretKey = Pick<Connection, 'id' | 'clientId'>;

export async function saveConnectionSecret(
  store: CredentialStore,
  connection: SecretKey,
  secret: string,
): Promise<void> {
  if (secret.length === 0) throw new Error('The client secret is empty.');
  await store.set(secretAccount(connection), secret);
}

export function readConnectionSecret(
  store: CredentialStore,
  connection: SecretKey,
): Promise<string | null> {
  return store.get(secretAccount(connection));
}

export function deleteConnectionSecret(
  store: CredentialStore,
  connection: SecretKey,
): Promise<boolean> {
  return store.delete(secretAccount(connection));
}

/** What a TokenManager reads its secret with: the keychain entry, or an 'unauthorized' error when there is none. */
export function clientSecretReader(
  store: CredentialStore,
  connection: SecretKey & Pick<Connection, 'label'>,
) {
  return async (): Promise<string> => {
    const secret = await readConnectionSecret(store, connection);
    if (secret === null) {
      throw new ApiClientError({
        kind: 'unauthorized',
        reason: 'missing-secret',
        message: `No client secret is stored for the connection "${connection.label}". Enter it in the connection settings.`,
      });
    }
    return secret;
  };
}

/** A TokenManager for a connection whose secret is in `store`. */
export function connectionTokenManager(
  connection: Connection,
  store: CredentialStore,
  options: Omit<TokenManagerOptions, 'tokenUrl' | 'clientId' | 'clientSecret'> = {},
): TokenManager {
  return new TokenManager({
    ...options,
    tokenUrl: tokenUrl(connection),
    clientId: connection.clientId,
    clientSecret: clientSecretReader(store, connection),
  });
}
