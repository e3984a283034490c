import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
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
import { ChangeSubject, type CoreEventName, type CoreEvents } from '../shared/events';
import type { Logger, Redactor } from './logging';
import { Session, type SessionTuning } from './session';
import { keepPricing } from './catalog/partner-pricing';
import type { PartnerSettings } from '../shared/api';
import { StoreError } from './store';
import type { LocalStore } from './stores';
import type { StoredConnection } from './connections/connections-repo';
import { realTimers, type Timers } from './timers';
import { DEFAULT_UPDATE_SETTINGS, UpdateSettings } from '../shared/update-views';
import type { ConnectionRemoval, StorageProblem, StoreNotice } from '../shared/store-views';
import { SETTING_KEYS } from './store/settings-repo';
import { openAppStore, type AppStore } from './stores/app-store';
import { migrateSingleFileStore } from './stores/single-file-migration';
import { connectionStoreFile, deleteStoreFiles, SIDE_FILES } from './store/store-files';
import { storeFaultOf, type FaultListener } from './store/store-faults';
import {
  openConnectionStore,
  recoverConnectionStore,
  takeRecoveryRecord,
  unsentChanges,
  type RecoveryRecord,
} from './stores/local-store-recovery';
import { StorageWatch } from './storage-watch';
import { UpdateController } from './updates/update-controller';
import type { UpdaterPort } from './updates/updater-port';

/** The events that change what the header says of the connection: each is a 'status' change. */
const STATUS_EVENTS: readonly CoreEventName[] = [
  'connectivity',
  'sync-state',
  'outbox-count',
  'storage',
  'store-notices',
];

export interface CoreOptions {
  /** The app's data directory: the local database and the embedded sandbox's data live here. */
  dataDir: string;
  credentials: CredentialStore;
  log: Logger;
  redactor: Redactor;
  /** The PC's clock: what "today" is for the user (refills count days from it). */
  clock?: Clock;
  /**
   * The clock of schedules and of the stores' timestamps, which no change of the PC's clock
   * moves; default a steadyClock started from `clock`.
   */
  steadyClock?: Clock;
  fetch?: typeof fetch;
  timers?: Timers;
  /** The embedded sandbox's database; default `${dataDir}/sandbox.db`. */
  embeddedDb?: string;
  /** electron-updater's autoUpdater (the Electron app only); absent: updates are settings only. */
  updater?: UpdaterPort | null;
  /** Shorter waits than a user needs (tests): passed to every session. */
  tuning?: SessionTuning;
}

/** A partner connection as the user enters it (the embedded one is made by useEmbedded()). */
export type NewConnection = Omit<ConnectionInput, 'id' | 'kind'> & {
  kind: 'partner-sandbox' | 'production';
};

/**
 * The main process's services, in plain Node: the app store (connections, settings; the data
 * folder's lock), the store of the active connection, the event bus, the embedded sandbox when
 * it is used, and the session of the active connection. The IPC layer calls this and nothing
 * below it. Each saved connection has a store file of its own: activating one opens its file,
 * and nothing of the other is touched. A store found damaged, at open or later, is kept and
 * recovered (store/store-recovery.ts) and the user is told where the damaged file is.
 */
export class Core {
  readonly bus: CoreEventBus;
  private current: Session | null = null;
  private opened: { id: string; store: LocalStore } | null = null;
  /** Switches and recoveries, one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  private recovering = false;
  /** How many times a damaged store was found (sync.now compares it before and after). */
  private damageCount = 0;
  private readonly connectionListeners = new Set<(active: StoredConnection | null) => void>();
  private latestSyncState: CoreEvents['sync-state'] | null = null;
  private embedded: Promise<EmbeddedConnection> | null = null;
  private readonly storage: StorageWatch;
  /** The folder the app keeps its data in (absolute). */
  readonly dataDir: string;
  /** The PC's clock (what "today" is for the user). */
  readonly clock: Clock;
  /** Schedules and the stores' timestamps: unmoved by changes of the PC's clock. */
  readonly steady: Clock;
  /** The app's own updates (off by default; never installed while a batch runs). */
  readonly updates: UpdateController;

  private constructor(
    private readonly options: CoreOptions,
    /** Connections, app settings and notices; held locked while the app runs. */
    readonly app: AppStore,
    faults: { bind(core: Core): void },
    steady: Clock,
  ) {
    this.dataDir = resolve(options.dataDir);
    this.clock = options.clock ?? systemClock;
    this.steady = steady;
    this.bus = new CoreEventBus((error) => options.log.error('event listener failed', error));
    this.bus.on('sync-state', (state) => {
      this.latestSyncState = state;
    });
    // The connection's state is a subject of its own: the header reads it live.
    for (const name of STATUS_EVENTS) this.bus.on(name, () => this.announce(['status']));
    const timers = options.timers ?? realTimers;
    this.storage = new StorageWatch({
      dataDir: this.dataDir,
      clock: this.steady,
      timers,
      emit: (problem) => this.bus.emit('storage', { problem }),
      onWritable: () => void this.resume(),
      log: (line) => options.log.child('storage').warn(line),
    });
    faults.bind(this);
    this.updates = new UpdateController({
      updater: options.updater ?? null,
      settings: {
        read: () => app.settings.get(SETTING_KEYS.updates, UpdateSettings, DEFAULT_UPDATE_SETTINGS),
        write: (settings) => app.settings.set(SETTING_KEYS.updates, settings),
      },
      batchRunning: () => {
        try {
          return this.opened?.store.batches.anyRunning() ?? false;
        } catch {
          return false; // the store is being switched or recovered
        }
      },
      onBatchChange: (listener) => this.bus.on('batch-progress', listener),
      emit: (view) => this.bus.emit('update-status', view),
      clock: this.steady,
      timers,
      redact: (text) => options.redactor.redact(text),
      log: (line) => options.log.child('updates').info(line),
    });
  }

  /**
   * Takes the data folder (DataDirInUseError when another process has it), opens the app store,
   * migrates the single store of earlier versions once, and resumes the active connection's
   * session, if there is one.
   */
  static async open(input: CoreOptions): Promise<Core> {
    // Every keychain failure becomes a KeychainError, so the UI can say what went wrong.
    const options = { ...input, credentials: guardKeychain(input.credentials) };
    const clock = options.steadyClock ?? steadyClock({ wall: options.clock ?? systemClock });
    const dataDir = resolve(options.dataDir);
    mkdirSync(dataDir, { recursive: true });
    let core: Core | null = null;
    // The app store reports faults from its first statement, before the Core exists.
    const early: Exclude<StoreFaultName, 'damaged'>[] = [];
    const faults = {
      bind: (c: Core) => {
        core = c;
        for (const fault of early.splice(0)) c.storage.fault(fault);
      },
      listener: {
        fault: (fault, error) => {
          if (fault === 'damaged') {
            options.log.error('the app store is damaged; it is recovered at the next start', error);
            return;
          }
          if (core) core.storage.fault(fault);
          else early.push(fault);
        },
      } satisfies FaultListener,
    };
    const app = openAppStore(dataDir, {
      clock,
      faults: faults.listener,
      changes: (subjects) => core?.announce(subjects),
    });
    try {
      const migrated = migrateSingleFileStore(dataDir, app, { clock });
      if (migrated)
        options.log.info(`the single store of an earlier version is now ${migrated.movedTo}`);
    } catch (error) {
      app.close();
      throw error;
    }
    const opened = new Core(options, app, faults, clock);
    opened.updates.start();
    await opened.resume();
    return opened;
  }

  /**
   * Starts the active connection's session if it is not running (at open; when the disk takes
   * writes again after its store could not be opened), else wakes its job runner: work that
   * waited for the disk goes on at once.
   */
  private async resume(): Promise<void> {
    if (this.current) return this.current.jobs.wake();
    const active = this.app.connections.active();
    if (!active) return;
    try {
      await this.activate(active.id);
    } catch (error) {
      const fault = storeFaultOf(error);
      if (fault && fault !== 'damaged') this.storage.fault(fault);
      this.options.log.error(`could not resume the connection "${active.label}"`, error);
    }
  }

  get session(): Session | null {
    return this.current;
  }

  /**
   * The active connection's store. Throws StoreError 'unavailable' when no connection is active,
   * or while its store is being recovered.
   */
  get store(): LocalStore {
    if (this.recovering)
      throw new StoreError(
        'unavailable',
        'Order Desk is recovering its local database after finding it damaged. Try again in a moment.',
      );
    if (!this.opened)
      throw new StoreError(
        'unavailable',
        'No connection is active. Choose the local sandbox or enter your credentials on the Connect screen.',
      );
    return this.opened.store;
  }

  /** The last sync state the active session reported, or null before its first report. */
  get syncState(): CoreEvents['sync-state'] | null {
    return this.latestSyncState;
  }

  /** Whether the disk under the data folder refuses writes now (null: it takes them). */
  get storageProblem(): StorageProblem {
    return this.storage.current;
  }

  /** How many times a store was found damaged while this process ran. */
  get damaged(): number {
    return this.damageCount;
  }

  /** The notices the user has not dismissed (a damaged store recovered). */
  notices(): StoreNotice[] {
    return this.app.notices.shown();
  }

  dismissNotice(id: string): boolean {
    const dismissed = this.app.notices.dismiss(id);
    if (dismissed) this.bus.emit('store-notices', { notices: this.notices() });
    return dismissed;
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
    return this.app.connections.list();
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

  /** Tests, then saves a partner connection (its secret in the keychain) and makes it active. */
  async connect(input: NewConnection, secret: string): Promise<StoredConnection> {
    // Issue 12: adding a connection again (same label) updates the saved one, never a duplicate.
    const sameLabel = this.savedWithLabel(input.label);
    if (sameLabel) return this.updateConnection(sameLabel.id, input, secret);
    const settings = await this.probe(input, secret);
    const id = `conn_${randomBytes(6).toString('hex')}`;
    const connection = Connection.parse({ ...input, id });
    await saveConnectionSecret(this.options.credentials, connection, secret);
    this.options.redactor.add(secret);
    const stored = this.app.connections.add(connection);
    try {
      return await this.activate(stored.id, settings);
    } catch (error) {
      this.app.connections.remove(stored.id);
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
      this.app.connections
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
  ): Promise<StoredConnection> {
    const current = this.app.connections.get(id);
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
    this.app.connections.update(id, input);
    return this.activate(id, settings);
  }

  // --- end of issue 12 (polish) --------------------------------------------------------------

  /** Starts the embedded sandbox (once per run) and makes it the active connection. */
  async useEmbedded(): Promise<StoredConnection> {
    const embedded = await this.startEmbedded();
    const { connection } = embedded;
    const existing = this.app.connections.get(EMBEDDED_CONNECTION_ID);
    if (existing) this.app.connections.update(existing.id, connection);
    else this.app.connections.add(connection);
    return this.activate(EMBEDDED_CONNECTION_ID);
  }

  /**
   * What removing an inactive connection would delete: its store file and what it holds (read
   * from the file, which is checked, and recovered if damaged, as at any open).
   */
  removal(id: string): ConnectionRemoval {
    const connection = this.app.connections.get(id);
    if (!connection) throw new StoreError('not-found', 'This connection is no longer saved.');
    refuseActive(connection);
    const file = connectionStoreFile(this.dataDir, id);
    const view: ConnectionRemoval = {
      id,
      label: connection.label,
      storeFile: file,
      bytes: 0,
      protocols: 0,
      unsentChanges: 0,
      batches: 0,
      unfinishedBatches: 0,
      orders: 0,
    };
    if (!existsSync(file)) return view;
    const store = this.openStoreOf(connection);
    try {
      const batches = store.batches.list();
      Object.assign(view, {
        protocols: store.protocols.count({ includeDeleted: true }),
        unsentChanges: unsentChanges(store),
        batches: batches.length,
        unfinishedBatches: batches.filter((b) => b.state !== 'done').length,
        orders: store.orders.count(),
      });
    } finally {
      store.close();
    }
    view.bytes = [file, ...SIDE_FILES.map((s) => file + s)]
      .filter(existsSync)
      .reduce((n, f) => n + statSync(f).size, 0);
    return view;
  }

  /**
   * Removes an inactive connection, its keychain secret and its store file (what removal()
   * listed: the user confirmed it). Files of it kept aside after damage stay where they are.
   */
  async removeConnection(id: string): Promise<boolean> {
    const connection = this.app.connections.get(id);
    if (!connection) return false;
    refuseActive(connection);
    deleteStoreFiles(connectionStoreFile(this.dataDir, id));
    if (!this.app.connections.remove(id)) return false;
    await deleteConnectionSecret(this.options.credentials, connection).catch(() => false);
    this.options.log.info(`removed the connection "${connection.label}" and its store`);
    return true;
  }

  /**
   * Closes everything and lets go of the data folder. When the app quits with an update ready
   * and no batch running, the update is installed once the stores are closed (electron-updater
   * then quits the app).
   */
  async close(): Promise<void> {
    const installUpdate = this.updates.quitInstall();
    this.updates.stop();
    this.storage.stop();
    await this.serial.catch(() => undefined);
    await this.current?.stop();
    this.current = null;
    if (this.embedded) await (await this.embedded.catch(() => null))?.sandbox.close();
    this.opened?.store.close();
    this.opened = null;
    this.app.close();
    installUpdate?.();
  }

  /**
   * Makes a saved connection the active one: its store is opened (the store of the connection
   * active before is closed, untouched) and its session started; activating the active one
   * restarts its session. An unknown id is a StoreError 'not-found'. `settings`: the partner
   * settings the connection was just tested with, whose pricing terms estimates use from the
   * first moment (the session's first sync reads them otherwise).
   */
  activate(id: string, settings: PartnerSettings | null = null): Promise<StoredConnection> {
    return this.oneAtATime(async () => {
      const target = this.app.connections.get(id);
      if (!target) throw new StoreError('not-found', `No connection ${id}.`);
      if (this.opened?.id !== id) {
        // The new store first: when it cannot be opened (a full disk), nothing has changed.
        const store = this.openStoreOf(target);
        await this.stopSession();
        const previous = this.opened;
        try {
          this.app.connections.setActive(id);
        } catch (error) {
          store.close();
          if (previous) await this.startSession(this.app.connections.get(previous.id)!);
          throw error;
        }
        previous?.store.close();
        this.opened = { id, store };
      }
      // Into the store of the connection now active, before its session starts.
      if (settings) keepPricing(this.opened!.store, settings, this.steady.now());
      await this.startSession(this.app.connections.get(id)!);
      // Read again: starting the embedded sandbox moves it to a new port.
      const stored = this.app.connections.get(id)!;
      this.announceConnection(stored);
      return stored;
    });
  }

  /** Tells the screens what changed (the `changed` event): those reading it read again. */
  announce(subjects: Iterable<ChangeSubject>): void {
    this.bus.emit('changed', { subjects: [...subjects] });
  }

  private oneAtATime<T>(run: () => Promise<T>): Promise<T> {
    const next = this.serial.then(run, run);
    this.serial = next.catch(() => undefined);
    return next;
  }

  /** Opens a connection's store (checked; recovered if damaged, and the user told). */
  private openStoreOf(connection: StoredConnection): LocalStore {
    const opened: { store: LocalStore | null } = { store: null };
    const store = openConnectionStore(connectionStoreFile(this.dataDir, connection.id), {
      clock: this.steady,
      now: () => this.clock.now(),
      faults: this.faultsOf(connection.id, opened),
      changes: (subjects) => this.announce(subjects),
    });
    opened.store = store;
    try {
      takeRecoveryRecord(store, (record) => this.tell(record, connection.label));
    } catch (error) {
      // The record stays in the store, and the user is told at the next open.
      this.options.log.error('could not record the notice of a recovered store', error);
    }
    return store;
  }

  /**
   * What a store of connection `id` reports: damage starts a recovery (only while that very store
   * is the active one: a late read of the store just replaced is not news); the rest, a banner.
   */
  private faultsOf(id: string, of: { store: LocalStore | null }): FaultListener {
    return {
      fault: (fault, error) => {
        if (fault !== 'damaged') return this.storage.fault(fault);
        if (this.opened?.store !== of.store || this.recovering) return;
        this.damageCount++;
        this.recovering = true;
        void this.oneAtATime(() => this.recoverActive(id, error)).catch((failure: unknown) =>
          this.options.log.error('the recovery of the damaged store failed', failure),
        );
      },
    };
  }

  /**
   * The active store was found damaged while in use: its session is stopped, the file closed,
   * kept and recovered (store-recovery.ts), and the session started again on the new store.
   */
  private async recoverActive(id: string, cause: unknown): Promise<void> {
    const log = this.options.log.child('store');
    try {
      const opened = this.opened;
      if (opened?.id !== id) return;
      log.error(`the store of connection ${id} is damaged: recovering it`, cause);
      await this.stopSession();
      opened.store.close();
      this.opened = null;
      const file = connectionStoreFile(this.dataDir, id);
      recoverConnectionStore(file, cause, { clock: this.steady, now: () => this.clock.now() });
      const connection = this.app.connections.get(id);
      if (!connection) return;
      this.opened = { id, store: this.openStoreOf(connection) };
      this.recovering = false;
      await this.startSession(connection);
      this.announceConnection(this.app.connections.get(id)!);
    } finally {
      this.recovering = false;
    }
  }

  /** Records what a recovery did as a notice for the user, and pushes the notices shown. */
  private tell(record: RecoveryRecord, label: string): void {
    const notice: StoreNotice = {
      id: record.id,
      kind: 'store-recovered',
      at: new Date(record.at).toISOString(),
      connectionLabel: label,
      cause: record.cause,
      keptAt: record.keptAt,
      storeFile: record.storeFile,
      recovered: record.recovered,
      unreadable: record.unreadable,
    };
    this.app.notices.add(notice);
    this.options.log
      .child('store')
      .warn(
        `the store of "${label}" was damaged; it is kept at ${record.keptAt} and ${record.recovered.protocols} protocol(s) were recovered (${record.unreadable} row(s) could not be read${record.lostTables.length ? `; nothing of ${record.lostTables.join(', ')}` : ''})`,
      );
    queueMicrotask(() => this.bus.emit('store-notices', { notices: this.notices() }));
  }

  private announceConnection(active: StoredConnection | null): void {
    for (const listener of [...this.connectionListeners]) {
      try {
        listener(active);
      } catch (error) {
        this.options.log.error('connection listener failed', error);
      }
    }
    // Another store is the active one (or the same one recovered): everything shown is read again.
    this.announce(ChangeSubject.options);
  }

  private startEmbedded(): Promise<EmbeddedConnection> {
    this.embedded ??= startEmbeddedConnection({
      dataDir: this.dataDir,
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

  private async stopSession(): Promise<void> {
    await this.current?.stop();
    this.current = null;
    this.latestSyncState = null;
  }

  /** (Re)starts the session of the active connection on its open store. */
  private async startSession(stored: StoredConnection): Promise<void> {
    await this.stopSession();
    let connection = Connection.parse(stored);
    let clientSecret = clientSecretReader(this.options.credentials, connection);
    if (connection.kind === 'embedded') {
      const embedded = await this.startEmbedded();
      // The embedded sandbox listens on a new free port at every start.
      this.app.connections.update(connection.id, embedded.connection);
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
      ...(this.options.tuning ? { tuning: this.options.tuning } : {}),
    });
    session.start();
    this.current = session;
  }
}

type StoreFaultName = Parameters<FaultListener['fault']>[0];

function refuseActive(connection: StoredConnection): void {
  if (connection.isActive)
    throw new StoreError(
      'invalid-state',
      'The active connection cannot be removed: switch to another one first.',
    );
}
