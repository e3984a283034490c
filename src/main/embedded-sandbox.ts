import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { StoreKey } from '@shared/store-cipher';
import { startSandbox, type RunningSandbox } from '../sandbox';

/** The sandbox's controls, for practice mode (practice.ts): only through this module. */
export { SandboxControlError, type SandboxControls } from '../sandbox';
import {
  clientSecretReader,
  Connection,
  readConnectionSecret,
  saveConnectionSecret,
} from './connections/connection';
import type { CredentialStore } from './connections/keychain';

export const EMBEDDED_CONNECTION_ID = 'embedded';
export const EMBEDDED_CLIENT_ID = 'order-desk-local';

export interface EmbeddedConnection {
  sandbox: RunningSandbox;
  /** The connection record of the embedded sandbox; its URLs change at every start (free port). */
  connection: Connection;
  /** For the TokenManager: reads the keychain, or the in-memory secret when the keychain is unavailable. */
  clientSecret: () => Promise<string>;
  /** Whether the demo secret is kept in the keychain (false: per-session secret in memory only). */
  secretInKeychain: boolean;
}

export interface EmbeddedConnectionOptions {
  dataDir: string;
  store: CredentialStore;
  log: (line: string) => void;
  /** Where the sandbox keeps its data; default `${dataDir}/sandbox.db`. ':memory:' in tests. */
  db?: string;
  /** The key its file is encrypted with: the app's (it holds the demo clinic's patients). */
  dbKey: StoreKey;
}

/**
 * Starts the embedded sandbox with per-install demo credentials: a random client secret kept
 * in the keychain (created on first start) and given to the sandbox as its client's secret.
 * The sandbox re-keys its client at every start, so when the keychain is unavailable a fresh
 * secret held in memory for this session works just as well.
 */
export async function startEmbeddedConnection(
  options: EmbeddedConnectionOptions,
): Promise<EmbeddedConnection> {
  const key = { id: EMBEDDED_CONNECTION_ID, clientId: EMBEDDED_CLIENT_ID };
  let secret: string | null = null;
  let secretInKeychain = true;
  try {
    secret = await readConnectionSecret(options.store, key);
    if (secret === null) {
      secret = randomBytes(32).toString('base64url');
      await saveConnectionSecret(options.store, key, secret);
    }
  } catch (error) {
    secretInKeychain = false;
    secret ??= randomBytes(32).toString('base64url');
    options.log(
      `embedded sandbox: the demo secret is kept in memory for this session (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const sandbox = await startSandbox(
    {
      port: 0,
      host: '127.0.0.1',
      db: options.db ?? join(options.dataDir, 'sandbox.db'),
      clientId: EMBEDDED_CLIENT_ID,
      clientSecret: secret,
      // Webhooks to public hosts only, as any server: nothing in the app receives webhooks, and
      // loopback is where the desktop's own services listen (docs/decisions.md).
      allowLoopbackWebhooks: false,
    },
    { log: options.log, dbKey: options.dbKey },
  );
  const connection = Connection.parse({
    ...key,
    kind: 'embedded',
    label: 'Local sandbox',
    baseUrl: sandbox.baseUrl,
    authUrl: sandbox.authUrl,
  });
  const inMemory = secret;
  return {
    sandbox,
    connection,
    clientSecret: secretInKeychain
      ? clientSecretReader(options.store, connection)
      : async () => inMemory,
    secretInKeychain,
  };
}
