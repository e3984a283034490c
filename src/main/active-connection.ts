import type { PartnerSettings } from '../shared/api';
import type { ActivityActor } from '../shared/activity-views';
import { ActivityLog } from './activity/activity-log';
import { ChangeSubject, type CoreEvents } from '../shared/core-events';
import { keepPricing } from './catalog/partner-pricing';
import type { Clock } from './clock';
import { Session, type SessionTuning } from './connection-session';
import { Connection, clientSecretReader } from './connections/connection';
import type { StoredConnection } from './connections/connections-repo';
import type { CredentialStore } from './connections/keychain';
import { startEmbeddedConnection, type EmbeddedConnection } from './embedded-sandbox';
import type { CoreEventBus } from './core-event-bus';
import type { Logger, Redactor } from './logging';
import type { Notices } from './notices';
import type { PaceSource } from './orders/order-poller';
import { StoreError } from './db';
import type { LocalStore } from './stores';
import type { AppStore } from './stores/app-store';
import { connectionStoreFile } from './db/store-files';
import { storeFaultOf, type FaultListener } from './db/store-faults';
import {
  openConnectionStore,
  recoverConnectionStore,
  takeRecoveryRecord,
} from './stores/local-store-recovery';
import type { StorageWatch } from './storage-watch';
import type { Timers } from './timers';
import type { StoreKey } from './db/cipher';
import { ENCRYPTED_NOTE, EncryptedNote, takeStoreNote } from './stores/store-notes';

export interface ActiveConnectionOptions {
  app: Pick<AppStore, 'connections'>;
  /** The app's data folder (absolute). */
  dataDir: string;
  /** The PC's clock (what "today" is for the user). */
  clock: Clock;
  /** Schedules and the stores' timestamps. */
  steady: Clock;
  credentials: CredentialStore;
  log: Logger;
  redactor: Redactor;
  bus: CoreEventBus;
  /** The banner of a disk that refuses writes: a store's other faults go there. */
  storage: Pick<StorageWatch, 'fault'>;
  /** Where a recovered store's record becomes a notice for the user. */
  notices: Pick<Notices, 'recovered'>;
  /** The key of every store file (the connections' and the embedded sandbox's). */
  key: StoreKey;
  /** Tells the screens what changed (the `changed` event). */
  announce(subjects: Iterable<ChangeSubject>): void;
  /** Who is at this desk now: every activity entry names them. */
  actor: () => ActivityActor;
  /** Years the activity record is kept (the setting). */
  retentionYears: () => number;
  fetch?: typeof fetch;
  timers?: Timers;
  /** The embedded sandbox's database; default `${dataDir}/sandbox.db`. */
  embeddedDb?: string;
  /** Whether someone is looking at a window: every session's poller follows it. */
  pace?: PaceSource;
  tuning?: SessionTuning;
}

/**
 * The active connection at run time: its store (opened and checked; found damaged, at open or
 * later, it is kept and recovered, stores/local-store-recovery.ts) and its session, started and
 * stopped together. Switching, recovering and resuming go one at a time. Each saved connection
 * has a store file of its own: activating one opens its file, and nothing of the other is
 * touched.
 */
export class ActiveConnection {
  private current: Session | null = null;
  private opened: { id: string; store: LocalStore; activity: ActivityLog } | null = null;
  /** Switches and recoveries, one at a time. */
  private serial: Promise<unknown> = Promise.resolve();
  private recovering = false;
  /** How many times a damaged store was found (sync.now compares it before and after). */
  private damageCount = 0;
  private readonly connectionListeners = new Set<(active: StoredConnection | null) => void>();
  private latestSyncState: CoreEvents['sync-state'] | null = null;
  private embedded: Promise<EmbeddedConnection> | null = null;

  constructor(private readonly o: ActiveConnectionOptions) {
    o.bus.on('sync-state', (state) => {
      this.latestSyncState = state;
    });
  }

  /**
   * Starts the active connection's session if it is not running (at open; when the disk takes
   * writes again after its store could not be opened), else wakes its job runner: work that
   * waited for the disk goes on at once.
   */
  async resume(): Promise<void> {
    if (this.current) return this.current.jobs.wake();
    const active = this.o.app.connections.active();
    if (!active) return;
    try {
      await this.activate(active.id, null, 'resume');
    } catch (error) {
      const fault = storeFaultOf(error);
      if (fault && fault !== 'damaged') this.o.storage.fault(fault);
      this.o.log.error(`could not resume the connection "${active.label}"`, error);
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

  /** How many times a store was found damaged while this process ran. */
  get damaged(): number {
    return this.damageCount;
  }

  /**
   * Calls `listener` with the active connection (as stored) whenever it changes: connected,
   * switched, or the embedded sandbox restarted on a new port. Returns the unsubscribe function.
   */
  onConnectionChanged(listener: (active: StoredConnection | null) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /**
   * Makes a saved connection the active one: its store is opened (the store of the connection
   * active before is closed, untouched) and its session started; activating the active one
   * restarts its session. An unknown id is a StoreError 'not-found'. `settings`: the partner
   * settings the connection was just tested with, whose pricing terms estimates use from the
   * first moment (the session's first sync reads them otherwise).
   */
  activate(
    id: string,
    settings: PartnerSettings | null = null,
    /** 'resume': the connection active at the last run, opened at start (no switch to record). */
    why: 'switch' | 'resume' = 'switch',
  ): Promise<StoredConnection> {
    return this.oneAtATime(async () => {
      const target = this.o.app.connections.get(id);
      if (!target) throw new StoreError('not-found', `No connection ${id}.`);
      if (this.opened?.id !== id) {
        // The new store first: when it cannot be opened (a full disk), nothing has changed.
        const store = this.openStoreOf(target);
        await this.stopSession();
        const previous = this.opened;
        const activity = this.activityOf(store);
        try {
          store.transaction(() => {
            // Into the store entered; rolled back when the switch itself fails.
            if (why === 'switch')
              activity.record({
                action: 'connection-switched',
                subjects: { connection: id },
                detail: { previousConnection: previous?.id ?? null },
              });
            this.o.app.connections.setActive(id);
          });
        } catch (error) {
          store.close();
          if (previous) await this.startSession(this.o.app.connections.get(previous.id)!);
          throw error;
        }
        previous?.store.close();
        this.opened = { id, store, activity };
      }
      // Into the store of the connection now active, before its session starts.
      if (settings) keepPricing(this.opened!.store, settings, this.o.steady.now());
      await this.startSession(this.o.app.connections.get(id)!);
      // Read again: starting the embedded sandbox moves it to a new port.
      const stored = this.o.app.connections.get(id)!;
      this.announceConnection(stored);
      return stored;
    });
  }

  private oneAtATime<T>(run: () => Promise<T>): Promise<T> {
    const next = this.serial.then(run, run);
    this.serial = next.catch(() => undefined);
    return next;
  }

  /** Opens a connection's store (checked; recovered if damaged, and the user told). */
  openStoreOf(connection: StoredConnection): LocalStore {
    const opened: { store: LocalStore | null } = { store: null };
    const store = openConnectionStore(connectionStoreFile(this.o.dataDir, connection.id), {
      key: this.o.key,
      clock: this.o.steady,
      now: () => this.o.clock.now(),
      faults: this.faultsOf(connection.id, opened),
      changes: (subjects) => this.o.announce(subjects),
    });
    opened.store = store;
    try {
      takeRecoveryRecord(store, (record) => {
        this.o.notices.recovered(record, connection.label);
        this.activityOf(store).record({
          action: 'store-recovered',
          byApp: true,
          subjects: { connection: connection.id },
          detail: {
            recovery: {
              cause: record.cause,
              ...record.recovered,
              unreadable: record.unreadable,
              lostTables: record.lostTables,
            },
          },
        });
      });
    } catch (error) {
      // The record stays in the store, and the user is told at the next open.
      this.o.log.error('could not record the notice of a recovered store', error);
    }
    try {
      takeStoreNote(store, ENCRYPTED_NOTE, EncryptedNote, (note) =>
        this.activityOf(store).record({
          action: 'store-encrypted',
          byApp: true,
          subjects: { connection: connection.id },
          detail: { encryptedAt: new Date(note.at).toISOString() },
        }),
      );
    } catch (error) {
      // The note stays in the store, and is recorded at the next open.
      this.o.log.error('could not record the encryption of a store', error);
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
        if (fault !== 'damaged') return this.o.storage.fault(fault);
        if (this.opened?.store !== of.store || this.recovering) return;
        this.damageCount++;
        this.recovering = true;
        void this.oneAtATime(() => this.recoverActive(id, error)).catch((failure: unknown) =>
          this.o.log.error('the recovery of the damaged store failed', failure),
        );
      },
    };
  }

  /**
   * The active store was found damaged while in use: its session is stopped, the file closed,
   * kept and recovered (store-recovery.ts), and the session started again on the new store.
   */
  private async recoverActive(id: string, cause: unknown): Promise<void> {
    const log = this.o.log.child('store');
    try {
      const opened = this.opened;
      if (opened?.id !== id) return;
      log.error(`the store of connection ${id} is damaged: recovering it`, cause);
      await this.stopSession();
      opened.store.close();
      this.opened = null;
      const file = connectionStoreFile(this.o.dataDir, id);
      recoverConnectionStore(file, cause, {
        key: this.o.key,
        clock: this.o.steady,
        now: () => this.o.clock.now(),
      });
      const connection = this.o.app.connections.get(id);
      if (!connection) return;
      const store = this.openStoreOf(connection);
      this.opened = { id, store, activity: this.activityOf(store) };
      this.recovering = false;
      await this.startSession(connection);
      this.announceConnection(this.o.app.connections.get(id)!);
    } finally {
      this.recovering = false;
    }
  }

  /**
   * The activity record of a store: entries name who is at the desk, and carry the server's time
   * while the store is the active one and its session reaches the server.
   */
  private activityOf(store: LocalStore): ActivityLog {
    return new ActivityLog({
      repo: store.activity,
      actor: this.o.actor,
      clock: this.o.clock,
      serverNow: () =>
        this.opened?.store === store ? (this.current?.serverNowIfOnline() ?? null) : null,
    });
  }

  /** The activity record of the active connection's store; null when none is open. */
  get activity(): ActivityLog | null {
    return this.recovering ? null : (this.opened?.activity ?? null);
  }

  private announceConnection(active: StoredConnection | null): void {
    for (const listener of [...this.connectionListeners]) {
      try {
        listener(active);
      } catch (error) {
        this.o.log.error('connection listener failed', error);
      }
    }
    // Another store is the active one (or the same one recovered): everything shown is read again.
    this.o.announce(ChangeSubject.options);
  }

  /** The embedded sandbox if it was started in this process (whatever connection is active). */
  get embeddedSandbox(): Promise<EmbeddedConnection> | null {
    return this.embedded;
  }

  startEmbedded(): Promise<EmbeddedConnection> {
    this.embedded ??= startEmbeddedConnection({
      dataDir: this.o.dataDir,
      store: this.o.credentials,
      dbKey: this.o.key,
      log: (line) => this.o.log.child('sandbox').info(line),
      ...(this.o.embeddedDb ? { db: this.o.embeddedDb } : {}),
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
    let clientSecret = clientSecretReader(this.o.credentials, connection);
    if (connection.kind === 'embedded') {
      const embedded = await this.startEmbedded();
      // The embedded sandbox listens on a new free port at every start.
      this.o.app.connections.update(connection.id, embedded.connection);
      connection = embedded.connection;
      clientSecret = embedded.clientSecret;
    }
    const session = new Session({
      connection,
      clientSecret,
      store: this.store,
      activity: this.opened!.activity,
      retention: { years: this.o.retentionYears, wall: this.o.clock },
      bus: this.o.bus,
      log: this.o.log,
      redactor: this.o.redactor,
      clock: this.o.steady,
      ...(this.o.fetch ? { fetch: this.o.fetch } : {}),
      ...(this.o.timers ? { timers: this.o.timers } : {}),
      ...(this.o.pace ? { pace: this.o.pace } : {}),
      ...(this.o.tuning ? { tuning: this.o.tuning } : {}),
    });
    session.start();
    this.current = session;
  }

  /** The open store, if any, even while it is being recovered (never throws). */
  get openStore(): LocalStore | null {
    return this.opened?.store ?? null;
  }

  /**
   * Stops the session and closes the store and the embedded sandbox, once the switch or
   * recovery in progress is over.
   */
  async close(): Promise<void> {
    await this.serial.catch(() => undefined);
    await this.current?.stop();
    this.current = null;
    if (this.embedded) await (await this.embedded.catch(() => null))?.sandbox.close();
    this.opened?.store.close();
    this.opened = null;
  }
}
