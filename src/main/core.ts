import { mkdirSync } from 'node:fs';
import { z } from 'zod';
import { resolve } from 'node:path';
import { ActiveConnection } from './active-connection';
import type { ActivityInput } from './activity/activity-log';
import { Desk } from './activity/desk';
import { DEFAULT_RETENTION_YEARS, RetentionYears } from '../shared/activity-views';
import { steadyClock, systemClock, type Clock } from './clock';
import type { Session, SessionTuning } from './connection-session';
import { ConnectionManager, type NewConnection } from './connection-manager';
import type { StoredConnection } from './connections/connections-repo';
import type { CredentialStore } from './connections/keychain';
import { guardKeychain } from './connections/keychain-guard';
import { CoreEventBus } from './core-event-bus';
import type { ChangeSubject } from '../shared/core-events';
import { type CoreEventName, type CoreEvents } from '../shared/core-events';
import type { Logger, Redactor } from './logging';
import { Notices } from './notices';
import { Presence } from './presence';
import type { PartnerSettings } from '../shared/api';
import type { LocalStore } from './stores';
import { realTimers, type Timers } from './timers';
import type { StoreKey } from './db/cipher';
import { DEFAULT_UPDATE_SETTINGS, UpdateSettings } from '../shared/update-views';
import type { ConnectionRemoval, StorageProblem, StoreNotice } from '../shared/store-views';
import { ProtocolColumn, ProtocolColumns, inListOrder } from '../shared/protocol-views';
import type { UndoOutcome } from '../shared/undo-views';
import type { StepMatch } from './protocols/undo';
import { SETTING_KEYS } from './db/settings-repo';
import { openAppStore, type AppStore } from './stores/app-store';
import { migrateSingleFileStore } from './stores/single-file-migration';
import type { FaultListener } from './db/store-faults';
import { StorageWatch } from './storage-watch';
import { UpdateController } from './updates/update-controller';
import type { UpdaterPort } from './updates/updater-port';

export type { NewConnection } from './connection-manager';

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
  /** The key of every store file of the data folder (stores/profile-key.ts; startup.ts finds it). */
  key: StoreKey;
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

/**
 * The main process's services, in plain Node, built and wired here: the app store (connections,
 * settings, notices; the data folder's lock), the event bus, the saved connections
 * (connection-manager.ts), the active connection's store and session
 * (active-connection.ts), the notices (notices.ts), the storage watch and the updates. The IPC
 * layer calls this and nothing below it; the members below only hand each call to its part.
 */
export class Core {
  readonly bus: CoreEventBus;
  /** The folder the app keeps its data in (absolute). */
  readonly dataDir: string;
  /** The PC's clock (what "today" is for the user). */
  readonly clock: Clock;
  /** Schedules and the stores' timestamps: unmoved by changes of the PC's clock. */
  readonly steady: Clock;
  /** The app's own updates (off by default; never installed while a batch runs). */
  readonly updates: UpdateController;
  /** The saved connections: test, connect, edit, remove. */
  readonly connections: ConnectionManager;
  /** The active connection's store and session. */
  readonly active: ActiveConnection;
  /** What the user is told until dismissed (a damaged store recovered). */
  readonly noticeBoard: Notices;
  /** This desk for the activity record: its id, name, OS account and the people at it. */
  readonly desk: Desk;
  /** Whether someone is looking at a window (`app.presence`): the order poller's cadence. */
  readonly presence: Presence;
  private readonly storage: StorageWatch;

  private constructor(
    options: CoreOptions,
    /** Connections, app settings and notices; held locked while the app runs. */
    readonly app: AppStore,
    faults: { bind(core: Core): void },
    steady: Clock,
  ) {
    this.dataDir = resolve(options.dataDir);
    this.clock = options.clock ?? systemClock;
    this.steady = steady;
    this.bus = new CoreEventBus((error) => options.log.error('event listener failed', error));
    this.noticeBoard = new Notices({ app, bus: this.bus, log: options.log });
    this.desk = new Desk({ settings: app.settings });
    const timers = options.timers ?? realTimers;
    this.presence = new Presence({ clock: steady, timers });
    // Before the status listeners below: the sync state is kept before a status change is told.
    this.active = new ActiveConnection({
      app,
      dataDir: this.dataDir,
      clock: this.clock,
      steady,
      credentials: options.credentials,
      log: options.log,
      redactor: options.redactor,
      bus: this.bus,
      storage: { fault: (fault) => this.storage.fault(fault) },
      notices: this.noticeBoard,
      key: options.key,
      announce: (subjects) => this.announce(subjects),
      actor: () => this.desk.actor(),
      retentionYears: () => this.retentionYears(),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.timers ? { timers: options.timers } : {}),
      ...(options.embeddedDb ? { embeddedDb: options.embeddedDb } : {}),
      ...(options.tuning ? { tuning: options.tuning } : {}),
      pace: this.presence,
    });
    this.connections = new ConnectionManager({
      app,
      dataDir: this.dataDir,
      credentials: options.credentials,
      log: options.log,
      redactor: options.redactor,
      steady,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      activate: (id, settings) => this.active.activate(id, settings),
      startEmbedded: () => this.active.startEmbedded(),
      openStore: (connection) => this.active.openStoreOf(connection),
    });
    // The connection's state is a subject of its own: the header reads it live.
    for (const name of STATUS_EVENTS) this.bus.on(name, () => this.announce(['status']));
    this.storage = new StorageWatch({
      dataDir: this.dataDir,
      clock: this.steady,
      timers,
      emit: (problem) => this.bus.emit('storage', { problem }),
      onWritable: () => void this.active.resume(),
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
          return this.active.openStore?.batches.anyRunning() ?? false;
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
      key: options.key,
      clock,
      faults: faults.listener,
      changes: (subjects) => core?.announce(subjects),
    });
    try {
      const migrated = migrateSingleFileStore(dataDir, app, { clock, key: options.key });
      if (migrated)
        options.log.info(`the single store of an earlier version is now ${migrated.movedTo}`);
    } catch (error) {
      app.close();
      throw error;
    }
    const opened = new Core(options, app, faults, clock);
    opened.updates.start();
    await opened.active.resume();
    return opened;
  }

  get session(): Session | null {
    return this.active.session;
  }

  /**
   * The active connection's store. Throws StoreError 'unavailable' when no connection is active,
   * or while its store is being recovered.
   */
  get store(): LocalStore {
    return this.active.store;
  }

  /** The last sync state the active session reported, or null before its first report. */
  get syncState(): CoreEvents['sync-state'] | null {
    return this.active.syncState;
  }

  /** Whether the disk under the data folder refuses writes now (null: it takes them). */
  get storageProblem(): StorageProblem {
    return this.storage.current;
  }

  /** How many times a store was found damaged while this process ran. */
  get damaged(): number {
    return this.active.damaged;
  }

  /** The notices the user has not dismissed (a damaged store recovered). */
  notices(): StoreNotice[] {
    return this.noticeBoard.shown();
  }

  dismissNotice(id: string): boolean {
    return this.noticeBoard.dismiss(id);
  }

  /** The active connection (as stored) whenever it changes; returns the unsubscribe function. */
  onConnectionChanged(listener: (active: StoredConnection | null) => void): () => void {
    return this.active.onConnectionChanged(listener);
  }

  /** Makes a saved connection the active one (ActiveConnection.activate). */
  activate(id: string, settings: PartnerSettings | null = null): Promise<StoredConnection> {
    return this.active.activate(id, settings);
  }

  listConnections(): StoredConnection[] {
    return this.connections.list();
  }

  testConnection(input: NewConnection, secret: string): Promise<{ partnerName: string }> {
    return this.connections.test(input, secret);
  }

  connect(input: NewConnection, secret: string): Promise<StoredConnection> {
    return this.connections.connect(input, secret);
  }

  get secretStorage(): 'system-keychain' | 'memory' {
    return this.connections.secretStorage;
  }

  secretMissing(connection: StoredConnection): Promise<boolean> {
    return this.connections.secretMissing(connection);
  }

  updateConnection(
    id: string,
    input: NewConnection,
    secret: string | undefined,
  ): Promise<StoredConnection> {
    return this.connections.update(id, input, secret);
  }

  useEmbedded(): Promise<StoredConnection> {
    return this.connections.useEmbedded();
  }

  removal(id: string): ConnectionRemoval {
    return this.connections.removal(id);
  }

  /** Removes an inactive connection; recorded in the active connection's activity record. */
  async removeConnection(id: string): Promise<boolean> {
    const known = this.app.connections.get(id);
    // What goes with it, counted first (remove() refuses an active or unknown one as before).
    const removal = known && !known.isActive ? this.connections.removal(id) : null;
    const removed = await this.connections.remove(id);
    if (removed && removal)
      this.recordActivity({
        action: 'connection-removed',
        subjects: { connection: id },
        detail: {
          removed: {
            protocols: removal.protocols,
            unsentChanges: removal.unsentChanges,
            batches: removal.batches,
            orders: removal.orders,
          },
        },
      });
    return removed;
  }

  /** Years the activity record is kept (the setting; six unless changed). */
  retentionYears(): number {
    return this.app.settings.get(
      SETTING_KEYS.activityRetention,
      RetentionYears,
      DEFAULT_RETENTION_YEARS,
    );
  }

  /** Sets an app setting; a change (its key, never its value) is recorded in the activity record. */
  changeSetting(key: string, value: unknown): void {
    const before = JSON.stringify(this.app.settings.get(key, z.unknown(), null));
    this.app.settings.set(key, value);
    if (JSON.stringify(value) !== before)
      this.recordActivity({ action: 'settings-changed', detail: { scope: 'app', keys: [key] } });
  }

  /** The protocol list's columns shown on this desk, in the list's order (all until chosen). */
  protocolColumns(): ProtocolColumn[] {
    return this.app.settings.get(SETTING_KEYS.protocolColumns, ProtocolColumns, [
      ...ProtocolColumn.options,
    ]);
  }

  /**
   * Shows these columns in the protocol list on this desk (a setting of app.db). A change is also
   * a 'columns' step of the active connection's undo history, noted in the transaction of its
   * activity entry (docs/decisions.md, "Undo and redo"); with no connection open it is only set.
   */
  setProtocolColumns(columns: readonly ProtocolColumn[]): void {
    const before = this.protocolColumns();
    const after = inListOrder(columns);
    const write = () => this.changeSetting(SETTING_KEYS.protocolColumns, after);
    const session = this.session;
    if (session) session.protocols.noteListStep({ columns: { before, after } }, write);
    else write();
  }

  /**
   * Undoes or redoes the next step of the session's history (ProtocolCommands.applyStep). A
   * step of the list's columns writes this desk's setting in the step's transaction, through the
   * same write as a person's choice; the window shows the columns the outcome carries.
   */
  undoStep(session: Session, way: 'undo' | 'redo', which: StepMatch): UndoOutcome {
    const inside = (outcome: UndoOutcome) => {
      if (outcome.columns) this.changeSetting(SETTING_KEYS.protocolColumns, outcome.columns);
    };
    return session.protocols.applyStep(way, which, inside);
  }

  /**
   * Records an app-level action (a setting of this desk, a connection removed) in the active
   * connection's activity record; with no connection open there is no record to write to.
   */
  recordActivity(input: ActivityInput): void {
    this.active.activity?.record(input);
  }

  /** Tells the screens what changed (the `changed` event): those reading it read again. */
  announce(subjects: Iterable<ChangeSubject>): void {
    this.bus.emit('changed', { subjects: [...subjects] });
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
    this.presence.stop();
    await this.active.close();
    this.app.close();
    installUpdate?.();
  }
}

type StoreFaultName = Parameters<FaultListener['fault']>[0];
