import type { ActivityLog } from './activity/activity-log';
import { ActivityRetention } from './activity/activity-retention';
import { createApiClient, type ApiClient, type ApiClientOptions } from './api/client';
import { ServerClock, observingServerTime } from './api/server-clock';
import { BulkSubmitter } from './bulk/bulk-submitter';
import type { Clock } from './clock';
import { tokenUrl, type Connection } from './connections/connection';
import { TokenManager } from './connections/token-manager';
import type { CoreEventBus } from './core-event-bus';
import { JobRunner } from './jobs/job-runner';
import type { Logger, Redactor } from './logging';
import { createOrderActions, type OrderActions } from './orders/order-actions';
import { DuplicateOrders } from './bulk/duplicate-orders';
import { orderJobs } from './orders/order-job';
import { OrderPoller, type OrderPollerOptions, type PaceSource } from './orders/order-poller';
import { RecentOrders } from './orders/recent-orders';
import { ProtocolCommands } from './protocols/protocol-commands';
import { protocolJobs } from './protocols/protocol-job';
import { orderStatusEvent, type OrderUpsert } from './orders/orders-repo';
import type { LocalStore } from './stores';
import { Connectivity, httpProbe } from './sync/connectivity';
import { SyncEngine } from './sync/sync-engine';
import { systemTimers, type Timers } from './timers';

export interface SessionOptions {
  connection: Connection;
  /** Reads the client secret (keychain); every value read is registered with the redactor. */
  clientSecret: () => Promise<string>;
  store: LocalStore;
  bus: CoreEventBus;
  log: Logger;
  redactor: Redactor;
  /** Schedules and local timestamps: a clock no change of the PC's clock moves (steadyClock). */
  clock: Clock;
  /** The activity record of this store: every command given it records what it does. */
  activity: ActivityLog;
  /** The activity record's retention: the years kept (the setting) and the PC's clock. */
  retention: { years: () => number; wall: Clock };
  fetch?: typeof fetch;
  timers?: Timers;
  /** Whether someone is looking at a window (the Presence): the poller's cadence. */
  pace?: PaceSource;
  /** Shorter waits than a user needs, for tests and benches; the defaults suit the app. */
  tuning?: SessionTuning;
}

export interface SessionTuning {
  client?: Pick<ApiClientOptions, 'timeoutMs' | 'sleep' | 'retries'>;
  /** How long an in-doubt write waits before the server is read, per kind of job. */
  inDoubtGraceMs?: { protocol?: number; order?: number };
  /** First wait before probing an unreachable server (it doubles up to 30 times that). */
  probeBackoffMs?: number;
  /** How often a secret missing from the keychain is looked for again (default 30 s). */
  secretRecheckMs?: number;
  /** The order poller's cycle and schedule. */
  poll?: Pick<OrderPollerOptions, 'cycleMs' | 'schedule' | 'budgetPerMinute' | 'fast'>;
}

/**
 * Everything that talks to one connection (token manager, API client, online state, job runner,
 * protocol commands, sync, bulk submission, poller, order actions), started and stopped together
 * when the user switches connection or quits. Once the secret or its tokens are refused, nothing
 * is sent, polled or synced until a new secret is entered (docs/decisions.md, "Credentials hold
 * the connection").
 */
export class Session {
  readonly connection: Connection;
  readonly client: ApiClient;
  readonly connectivity: Connectivity;
  readonly sync: SyncEngine;
  /** Drafting, deleting, importing protocols and resolving their conflicts. */
  readonly protocols: ProtocolCommands;
  readonly jobs: JobRunner;
  readonly bulk: BulkSubmitter;
  readonly poller: OrderPoller;
  readonly orders: OrderActions;
  /** The server's time, from its answers: what decisions against the server are made in. */
  readonly serverTime: ServerClock;
  /** The server's recent orders (other desks' too), kept in the mirror. */
  readonly recentOrders: RecentOrders;
  /** One order per patient unless a person says otherwise: the checks before and after. */
  readonly duplicates: DuplicateOrders;
  /** What was done through this session, recorded in its store. */
  readonly activity: ActivityLog;
  private readonly retention: ActivityRetention;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: SessionOptions) {
    const { store, bus, log, redactor, clock, activity } = options;
    this.connection = options.connection;
    this.activity = activity;
    this.serverTime = new ServerClock(clock);
    const fetchImpl = observingServerTime(options.fetch ?? globalThis.fetch, this.serverTime);
    const timers = options.timers ? { timers: options.timers } : {};
    const tokens = new TokenManager({
      tokenUrl: tokenUrl(options.connection),
      clientId: options.connection.clientId,
      clientSecret: async () => {
        const secret = await options.clientSecret();
        redactor.add(secret);
        return secret;
      },
      fetch: fetchImpl,
      clock,
      onCredentials: (state) => {
        if (state === 'rejected') this.connectivity.credentialsRejected();
        else if (state === 'missing') this.connectivity.credentialsMissing();
        else this.connectivity.credentialsAccepted();
      },
    });
    const redactedTokens = {
      getToken: async () => {
        const token = await tokens.getToken();
        redactor.add(token);
        return token;
      },
      invalidate: (token: string) => tokens.invalidate(token),
      reject: (token: string, error: Parameters<TokenManager['reject']>[1]) =>
        tokens.reject(token, error),
    };
    this.connectivity = new Connectivity({
      bus,
      // The token endpoint answers a request without credentials with a JSON error (RFC 6749),
      // so a page in its place (a captive portal) is noticed; no client id, no sign-in attempt.
      probe: httpProbe(tokenUrl(options.connection), {
        fetch: fetchImpl,
        form: { grant_type: 'client_credentials' },
      }),
      clock,
      ...(options.tuning?.probeBackoffMs !== undefined
        ? {
            initialBackoffMs: options.tuning.probeBackoffMs,
            maxBackoffMs: options.tuning.probeBackoffMs * 30,
          }
        : {}),
      ...(options.tuning?.secretRecheckMs !== undefined
        ? { secretRecheckMs: options.tuning.secretRecheckMs }
        : {}),
      secretReadable: async () => {
        try {
          await options.clientSecret();
          return true;
        } catch {
          return false;
        }
      },
      ...timers,
    });
    this.client = createApiClient({
      baseUrl: options.connection.baseUrl,
      tokens: redactedTokens,
      fetch: fetchImpl,
      clock,
      onReachability: this.connectivity.report,
      ...options.tuning?.client,
    });
    const scoped = (scope: string) => {
      const child = log.child(scope);
      return (line: string) => child.info(line);
    };
    const timerList = options.timers ?? systemTimers;
    const emitOrderChange = (change: OrderUpsert) =>
      bus.emit('order-status', orderStatusEvent(change));
    this.recentOrders = new RecentOrders({
      store,
      client: this.client,
      serverTime: this.serverTime,
      steady: clock,
      onOrderChange: emitOrderChange,
    });
    this.duplicates = new DuplicateOrders({
      store,
      recent: this.recentOrders,
      serverTime: this.serverTime,
      steady: clock,
    });
    this.jobs = new JobRunner({
      db: store.db,
      jobs: store.jobs,
      clock,
      timers: timerList,
      kinds: [
        protocolJobs({
          store,
          client: this.client,
          clock,
          serverTime: this.serverTime,
          inDoubtGraceMs: options.tuning?.inDoubtGraceMs?.protocol,
        }),
        orderJobs({
          store,
          client: this.client,
          clock,
          serverTime: this.serverTime,
          duplicates: this.duplicates,
          activity,
          log: scoped('orders'),
          inDoubtGraceMs: options.tuning?.inDoubtGraceMs?.order,
        }),
      ],
      serverNow: () => this.serverTime.nowIfKnown(),
      online: () => this.connectivity.online,
      held: () => this.connectivity.held,
      log: scoped('jobs'),
      onChanged: (change) => {
        this.sync.onJobChanged(change);
        this.bulk.onJobChanged(change);
      },
    });
    this.sync = new SyncEngine({
      store,
      client: this.client,
      connectivity: this.connectivity,
      jobs: this.jobs,
      bus,
      clock,
      serverTime: this.serverTime,
      // Orders just pulled may repeat a recent batch's (a late commit, another desk).
      afterPull: () => this.bulk.rescan({ read: false }),
      ...timers,
      log: scoped('sync'),
    });
    this.protocols = new ProtocolCommands({
      store,
      activity,
      // A local change: report the counts; the runner sends it once its edits settle.
      changed: () => {
        this.sync.emitCounts();
        this.jobs.wake();
      },
    });
    this.orders = createOrderActions({
      store,
      client: this.client,
      bus,
      activity,
      log: scoped('orders'),
    });
    this.bulk = new BulkSubmitter({
      store,
      activity,
      jobs: this.jobs,
      duplicates: this.duplicates,
      orders: this.orders,
      bus,
      clock,
      timers: timerList,
      log: scoped('bulk'),
    });
    this.poller = new OrderPoller({
      store,
      client: this.client,
      bus,
      clock,
      serverTime: this.serverTime,
      ...timers,
      ...options.tuning?.poll,
      ...(options.pace ? { pace: options.pace } : {}),
      online: () => this.connectivity.online,
      log: scoped('poller'),
    });
    this.retention = new ActivityRetention({
      repo: store.activity,
      log: activity,
      transaction: (fn) => store.transaction(fn),
      years: options.retention.years,
      clock: options.retention.wall,
      timers: timerList,
      onError: (error) => log.child('activity').error('the retention purge failed', error),
    });
    // The server back: what waited for it is sent.
    this.unsubscribe = bus.on('connectivity', (event) => {
      if (event.online) this.jobs.wake();
    });
  }

  /**
   * Starts background work: the job runner (unfinished writes continue), sync, order polling.
   * The session's state is announced first: a new session (the same connection with a new
   * secret) replaces the last one's, which may have been held.
   */
  start(): void {
    this.options.bus.emit('connectivity', this.connectivity.state);
    this.retention.start();
    this.bulk.start();
    this.jobs.start();
    this.sync.start();
    this.poller.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    await Promise.allSettled([this.sync.stop(), this.jobs.stop(), this.poller.stop()]);
    this.bulk.stop();
    this.retention.stop();
    this.connectivity.stop();
  }

  /** The server's time for the activity record: only while it answers, else null (unknown). */
  serverNowIfOnline(): number | null {
    return this.connectivity.online ? this.serverTime.nowIfKnown() : null;
  }
}
