import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient, type ApiClientOptions } from '@main/api/client';
import type { Clock } from '@main/clock';
import {
  Connection,
  connectionTokenManager,
  saveConnectionSecret,
} from '@main/connections/connection';
import { MemoryCredentialStore } from '@main/connections/keychain';
import type { TokenManager } from '@main/connections/token-manager';
import { CoreEventBus } from '@main/core-event-bus';
import { createLocalStore, type LocalStore } from '@main/stores';
import type { CoreEventName, CoreEvents } from '@shared/core-events';
import type { SandboxOptionsInput, SandboxRuntime } from '@sandbox/index';
import { startRewritingProxy, type RewritingProxy } from './rewriting-proxy';
import { startTestSandbox, type TestSandbox } from './sandbox';
import { TEST_KEY } from './store-key';

export interface RecordedEvent<K extends CoreEventName = CoreEventName> {
  name: K;
  payload: CoreEvents[K];
}

export interface MainFixtureOptions {
  sandboxOptions?: SandboxOptionsInput;
  sandboxRuntime?: SandboxRuntime;
  /** The fetch of the token manager and the API client (e.g. a counting fetch). */
  fetch?: typeof fetch;
  /** Extra options of the API client (sleep, retries, timeoutMs, ...). */
  client?: Partial<ApiClientOptions>;
  /** Clock of the store (default: the system clock). */
  clock?: Clock;
  /** Talk to the sandbox through a rewriting proxy (fx.proxy): the connection's URLs are its. */
  proxy?: boolean;
}

export interface MainFixture {
  sandbox: TestSandbox;
  /** The proxy the connection goes through, when asked for (options.proxy). */
  proxy: RewritingProxy | null;
  /** A temp-file store (WAL), removed by close(). */
  store: LocalStore;
  storeFile: string;
  connection: Connection;
  credentials: MemoryCredentialStore;
  tokens: TokenManager;
  client: ApiClient;
  bus: CoreEventBus;
  /** Every event emitted on the bus, in order. */
  events: RecordedEvent[];
  eventsOf<K extends CoreEventName>(name: K): CoreEvents[K][];
  close(): Promise<void>;
}

/**
 * The main-process core wired against a real sandbox on a loopback port: a store on a temp file,
 * a real TokenManager reading the secret from a MemoryCredentialStore, the API client, and an
 * event bus whose events are recorded.
 */
export async function startMainFixture(options: MainFixtureOptions = {}): Promise<MainFixture> {
  const sandbox = await startTestSandbox(
    options.sandboxOptions ?? {},
    options.sandboxRuntime ?? {},
  );
  const proxy = options.proxy ? await startRewritingProxy(sandbox.origin) : null;
  const dir = mkdtempSync(join(tmpdir(), 'order-desk-main-'));
  const storeFile = join(dir, 'store.db');
  const store = createLocalStore(storeFile, {
    key: TEST_KEY,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const connection = Connection.parse({
    id: 'test',
    kind: 'partner-sandbox',
    label: 'Test sandbox',
    baseUrl: proxy?.baseUrl ?? sandbox.baseUrl,
    authUrl: proxy?.authUrl ?? sandbox.authUrl,
    clientId: sandbox.clientId,
  });
  const credentials = new MemoryCredentialStore();
  await saveConnectionSecret(credentials, connection, sandbox.clientSecret);
  const tokens = connectionTokenManager(
    connection,
    credentials,
    options.fetch ? { fetch: options.fetch } : {},
  );
  const client = createApiClient({
    baseUrl: connection.baseUrl,
    tokens,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...options.client,
  });
  const bus = new CoreEventBus();
  const events: RecordedEvent[] = [];
  const names: CoreEventName[] = [
    'connectivity',
    'sync-state',
    'outbox-count',
    'batch-progress',
    'order-status',
  ];
  for (const name of names) {
    bus.on(name, (payload) => events.push({ name, payload } as RecordedEvent));
  }
  let closed = false;
  return {
    sandbox,
    proxy,
    store,
    storeFile,
    connection,
    credentials,
    tokens,
    client,
    bus,
    events,
    eventsOf: <K extends CoreEventName>(name: K) =>
      events.filter((e) => e.name === name).map((e) => e.payload as CoreEvents[K]),
    async close() {
      if (closed) return;
      closed = true;
      store.close();
      await proxy?.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
