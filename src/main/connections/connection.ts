import type { Connection } from '@shared/connection';
import { ApiClientError } from '../api/errors';
import type { CredentialStore } from './keychain';
export {
  CONNECTION_KINDS,
  Connection,
  ConnectionKind,
  normaliseAuthUrl,
  normaliseBaseUrl,
  type ConnectionInput,
} from '@shared/connection';
import { TokenManager, type TokenManagerOptions } from './token-manager';

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
        message: `The client secret of the connection "${connection.label}" is missing from the keychain. Enter it in the connection settings.`,
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
