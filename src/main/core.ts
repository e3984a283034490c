import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createApiClient } from './api/client';
import { steadyClock, systemClock, type Clock } from './clock';
import {
  Connection,
  clientSecretReader,
  deleteConnectionSecret,
  readConnectionSecret,
  saveConnectionSecret,
  tokenUrl,
  type ConnectionInput,
} from './connections/connection';
import type { CredentialStore } from './connections/keychain';
import { TokenManager } from './connections/token-manager';
import {
  EMBEDDED_CONNECTION_ID,
  startEmbeddedConnection,
  type EmbeddedConnection,
} from './embedded-sandbox';
import { KeychainError, guardKeychain } from './connections/keychain-guard';
import { CoreEventBus } from './events';
import type { CoreEvents } from '../shared/events';
import type { Logger, Redactor } from './logging';
import { Session, type SessionTuning } from './session';
import { keepPricing } from './catalog/partner-pricing';
import type { PartnerSettings } from '../shared/api';
import { StoreError, createLocalStore, type LocalStore } from './store';
import type { StoredConnection } from './connections/connections-repo';
import { realTimers, type Timers } from './timers';
import { DEFAULT_UPDATE_SETTINGS, UpdateSettings } from '../shared/update-views';
import { SETTING_KEYS } from './store/settings-repo';
import { UpdateController } from './updates/update-controller';
import type { UpdaterPort } from './updates/updater-port';

export interface CoreOptions {
  /** The app's data directory: the local database and the embedded sandbox's data live here. */
  dataDir: string;
  credentials: CredentialStore;
  log: Logger;
  redactor: Redactor;
  /** The PC's clock: what "today" is for the user (refills count days from it). */
  clock?: Clock;
  /**
   * The clock of schedules and of the store's timestamps, which no change of the PC's clock
   * moves; default a steadyClock started from `clock`.
   */
  steadyClock?: Clock;
  fetch?: typeof fetch;
  timers?: Timers;
  /** The embedded sandbox's database; default `${dataDir}/sandbox.db`. */
  embeddedDb?: string;
  /** electron-updater's autoUpdater (the Electron app only); absent: updates are settings only. */
  updater?: UpdaterPort | null;
  /** Shorter waits for the sessions, for tests and benches (see SessionTuning). */
  sessionTuning?: SessionTuning;
}

/** A partner connection as the user enters it (the embedded one is made by useEmbedded()). */
export type NewConnection = Omit<ConnectionInput, 'id' | 'kind'> & {
  kind: 'partner-sandbox' | 'production';
};

/**
 * The main process's services, in plain Node: the local store, the event bus, the embedded
 * sandbox when it is used, and the session of the active connection. The IPC layer calls this
 * and nothing below it.
 */
export class Core {
  readonly bus: CoreEventBus;
  private current: Session | null = null;
  private readonly connectionListeners = new Set<(active: StoredConnection | null) => void>();
  private latestSyncState: CoreEvents['sync-state'] | null = null;
  private embedded: Promise<EmbeddedConnection> | null = null;
  /** The PC's clock (what "today" is for the user). */
  readonly clock: Clock;
  /** Schedules and the store's timestamps: unmoved by changes of the PC's clock. */
  readonly steady: Clock;
  /** The app's own updates (off by default; never installed while a batch runs). */
  readonly updates: UpdateController;

  private constructor(
    private readonly options: CoreOptions,
    readonly store: LocalStore,
    steady: Clock,
  ) {
    this.clock = options.clock ?? systemClock;
    this.steady = steady;
    this.bus = new CoreEventBus((error) => options.log.error('event listener failed', error));
    this.bus.on('sync-state', (state) => {
      this.latestSyncState = state;
    });
    this.updates = new UpdateController({
      updater: options.updater ?? null,
      settings: {
        read: () =>
          store.settings.get(SETTING_KEYS.updates, UpdateSettings, DEFAULT_UPDATE_SETTINGS),
        write: (settings) => store.settings.set(SETTING_KEYS.updates, settings),
      },
      batchRunning: () => store.batches.anyRunning(),
      onBatchChange: (listener) => this.bus.on('batch-progress', listener),
      emit: (view) => this.bus.emit('update-status', view),
      clock: this.steady,
      timers: options.timers ?? realTimers,
      redact: (text) => options.redactor.redact(text),
      log: (line) => options.log.child('updates').info(line),
    });
  }

  /** Opens the store and resumes the active connection's session, if there is one. */
  static async open(input: CoreOptions): Promise<Core> {
    // Every keychain failure becomes a KeychainError, so the UI can say what went wrong.
    const options = { ...input, credentials: guardKeychain(input.credentials) };
    const steady = options.steadyClock ?? steadyClock({ wall: options.clock ?? systemClock });
    const store = createLocalStore(join(options.dataDir, 'order-desk.db'), { clock: steady });
    const core = new Core(options, store, steady);
    core.updates.start();
    const active = store.connections.active();
    if (active) {
      try {
        await core.startSession(active);
      } catch (error) {
        options.log.error(`could not resume the connection "${active.label}"`, error);
      }
    }
    return core;
  }

  get session(): Session | null {
    return this.current;
  }

  /** The last sync state the active session reported, or null before its first report. */
  get syncState(): CoreEvents['sync-state'] | null {
    return this.latestSyncState;
  }

  /**
   * Calls `listener` with the active connection (as stored) whenever it changes: connected,
   * switched, or the embedded sandbox restarted on a new port. Returns the unsubscribe function.
   */
  onConnectionChanged(listener: (active: StoredConnection | null) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  listConnections(): StoredConnection[] {
    return this.store.connections.list();
  }

  /**
   * Checks a partner connection without saving anything: a token, then the partner settings.
   * Throws the client's ApiClientError (wrong credentials, unreachable server) for the UI.
   */
  async testConnection(input: NewConnection, secret: string): Promise<{ partnerName: string }> {
    const settings = await this.probe(input, secret);
    return { partnerName: settings.name };
  }

  /** A token, then the partner settings, with these details; nothing is saved. */
  private async probe(input: NewConnection, secret: string): Promise<PartnerSettings> {
    const connection = Connection.parse({ ...input, id: 'probe' });
    const tokens = new TokenManager({
      tokenUrl: tokenUrl(connection),
      clientId: connection.clientId,
      clientSecret: async () => secret,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      clock: this.steady,
    });
    const client = createApiClient({
      baseUrl: connection.baseUrl,
      tokens,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      clock: this.steady,
      retries: 0,
    });
    return client.getPartnerSettings();
  }

  /**
   * Tests, then saves a partner connection (its secret in the keychain) and makes it active.
   * Switching away from unsent work is refused unless `discardPendingWork` (StoreError 'pending-work').
   */
  async connect(
    input: NewConnection,
    secret: string,
    options: { discardPendingWork?: boolean } = {},
  ): Promise<StoredConnection> {
    // Issue 12: adding a connection again (same label) updates the saved one, never a duplicate.
    const sameLabel = this.savedWithLabel(input.label);
    if (sameLabel) return this.updateConnection(sameLabel.id, input, secret, options);
    const settings = await this.probe(input, secret);
    const id = `conn_${randomBytes(6).toString('hex')}`;
    const connection = Connection.parse({ ...input, id });
    await saveConnectionSecret(this.options.credentials, connection, secret);
    this.options.redactor.add(secret);
    const stored = this.store.connections.add(connection);
    try {
      return await this.activate(stored.id, options, settings);
    } catch (error) {
      this.store.connections.remove(stored.id);
      await deleteConnectionSecret(this.options.credentials, connection).catch(() => false);
      throw error;
    }
  }

  // --- Issue 12 (polish): editing a saved connection, a secret missing from the keychain -------

  /** Where client secrets are kept: the system keychain, or memory for this run only. */
  get secretStorage(): 'system-keychain' | 'memory' {
    return this.options.credentials.kind ?? 'system-keychain';
  }

  /** True when a saved partner connection has no client secret in the keychain (never throws). */
  async secretMissing(connection: StoredConnection): Promise<boolean> {
    if (connection.kind === 'embedded') return false;
    try {
      return (await readConnectionSecret(this.options.credentials, connection)) === null;
    } catch {
      return false; // the keychain itself failed: that is said when the secret is used
    }
  }

  /** The saved partner connection with this label (case and spaces aside), if there is one. */
  private savedWithLabel(label: string): StoredConnection | null {
    const key = label.trim().toLowerCase();
    return (
      this.store.connections
        .list()
        .find((c) => c.kind !== 'embedded' && c.label.trim().toLowerCase() === key) ?? null
    );
  }

  /**
   * Changes a saved partner connection (label, URLs, client id) and, when given, its client
   * secret; without one the stored secret is kept (it must exist). The details are tested first;
   * nothing is saved when the server refuses them. The connection is then made active.
   */
  async updateConnection(
    id: string,
    input: NewConnection,
    secret: string | undefined,
    options: { discardPendingWork?: boolean } = {},
  ): Promise<StoredConnection> {
    const current = this.store.connections.get(id);
    if (!current) throw new StoreError('not-found', 'This connection is no longer saved.');
    if (current.kind === 'embedded')
      throw new StoreError('invalid-state', 'The local sandbox has no details to edit.');
    const other = this.savedWithLabel(input.label);
    if (other && other.id !== id)
      throw new StoreError(
        'invalid-state',
        `Another saved connection is called "${other.label}": choose another label.`,
      );
    const stored = secret ?? (await readConnectionSecret(this.options.credentials, current));
    if (stored === null)
      throw new KeychainError(
        `The client secret of "${current.label}" is missing from the keychain: enter it again.`,
      );
    const next = Connection.parse({ ...input, id });
    const settings = await this.probe(input, stored);
    await saveConnectionSecret(this.options.credentials, next, stored);
    this.options.redactor.add(stored);
    if (next.clientId !== current.clientId)
      await deleteConnectionSecret(this.options.credentials, current).catch(() => false);
    this.store.connections.update(id, input);
    return this.activate(id, options, settings);
  }

  // --- end of issue 12 (polish) --------------------------------------------------------------

  /** Starts the embedded sandbox (once per run) and makes it the active connection. */
  async useEmbedded(options: { discardPendingWork?: boolean } = {}): Promise<StoredConnection> {
    const embedded = await this.startEmbedded();
    const { connection } = embedded;
    const existing = this.store.connections.get(EMBEDDED_CONNECTION_ID);
    if (existing) this.store.connections.update(existing.id, connection);
    else this.store.connections.add(connection);
    return this.activate(EMBEDDED_CONNECTION_ID, options);
  }

  /** Removes an inactive connection and its keychain secret. */
  async removeConnection(id: string): Promise<boolean> {
    const connection = this.store.connections.get(id);
    if (!connection || !this.store.connections.remove(id)) return false;
    await deleteConnectionSecret(this.options.credentials, connection).catch(() => false);
    return true;
  }

  /**
   * Closes everything. When the app quits with an update ready and no batch running, the update
   * is installed once the store is closed (electron-updater then quits the app).
   */
  async close(): Promise<void> {
    const installUpdate = this.updates.quitInstall();
    this.updates.stop();
    await this.current?.stop();
    this.current = null;
    if (this.embedded) await (await this.embedded.catch(() => null))?.sandbox.close();
    this.store.close();
    installUpdate?.();
  }

  /**
   * Makes a saved connection the active one and starts its session. Switching away from unsent
   * work is refused unless `discardPendingWork` (StoreError 'pending-work'); an unknown id is a
   * StoreError 'not-found'. `settings`: the partner settings the connection was just tested
   * with, whose pricing terms estimates use from the first moment (the session's first sync
   * reads them otherwise).
   */
  async activate(
    id: string,
    options: { discardPendingWork?: boolean } = {},
    settings: PartnerSettings | null = null,
  ): Promise<StoredConnection> {
    const active = this.store.connections.active();
    if (active?.id !== id) this.store.connections.setActive(id, options);
    // Into the store of the connection now active, before its session starts.
    if (settings) keepPricing(this.store, settings, this.clock.now());
    await this.startSession(this.store.connections.get(id)!);
    // Read again: starting the embedded sandbox moves it to a new port.
    const stored = this.store.connections.get(id)!;
    this.announceConnection(stored);
    return stored;
  }

  private announceConnection(active: StoredConnection | null): void {
    for (const listener of [...this.connectionListeners]) {
      try {
        listener(active);
      } catch (error) {
        this.options.log.error('connection listener failed', error);
      }
    }
  }

  private startEmbedded(): Promise<EmbeddedConnection> {
    this.embedded ??= startEmbeddedConnection({
      dataDir: this.options.dataDir,
      store: this.options.credentials,
      log: (line) => this.options.log.child('sandbox').info(line),
      ...(this.options.embeddedDb ? { db: this.options.embeddedDb } : {}),
    });
    // A failed start may be retried by the next call.
    this.embedded.catch(() => {
      this.embedded = null;
    });
    return this.embedded;
  }

  private async startSession(stored: StoredConnection): Promise<void> {
    await this.current?.stop();
    this.current = null;
    this.latestSyncState = null;
    let connection = Connection.parse(stored);
    let clientSecret = clientSecretReader(this.options.credentials, connection);
    if (connection.kind === 'embedded') {
      const embedded = await this.startEmbedded();
      // The embedded sandbox listens on a new free port at every start.
      this.store.connections.update(connection.id, embedded.connection);
      connection = embedded.connection;
      clientSecret = embedded.clientSecret;
    }
    const session = new Session({
      connection,
      clientSecret,
      store: this.store,
      bus: this.bus,
      log: this.options.log,
      redactor: this.options.redactor,
      clock: this.steady,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(this.options.timers ? { timers: this.options.timers } : {}),
      ...(this.options.sessionTuning ? { tuning: this.options.sessionTuning } : {}),
    });
    session.start();
    this.current = session;
  }
}
