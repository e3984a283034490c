import { createApiClient, type ApiClient } from './api/client';
import type { Clock } from './clock';
import { tokenUrl, type Connection } from './connections/connection';
import { TokenManager } from './connections/token-manager';
import type { CoreEventBus } from './events';
import type { Logger, Redactor } from './logging';
import type { LocalStore } from './store';
import { BulkSubmitter } from './bulk/bulk-submitter';
import { Connectivity, httpProbe } from './sync/connectivity';
import { createOrderActions, type OrderActions } from './orders/order-actions';
import { OrderPoller } from './orders/order-poller';
import { SyncEngine } from './sync/sync-engine';
import type { Timers } from './timers';

export interface SessionOptions {
  connection: Connection;
  /** Reads the client secret (keychain); every value read is registered with the redactor. */
  clientSecret: () => Promise<string>;
  store: LocalStore;
  bus: CoreEventBus;
  log: Logger;
  redactor: Redactor;
  clock: Clock;
  fetch?: typeof fetch;
  timers?: Timers;
}

/**
 * Everything that talks to one connection: its token manager and API client, the online state,
 * sync, bulk submission, the order poller and order actions. Started together, stopped together
 * when the user switches connection or quits.
 */
export class Session {
  readonly connection: Connection;
  readonly client: ApiClient;
  readonly connectivity: Connectivity;
  readonly sync: SyncEngine;
  readonly bulk: BulkSubmitter;
  readonly poller: OrderPoller;
  readonly orders: OrderActions;

  constructor(options: SessionOptions) {
    const { store, bus, log, redactor, clock } = options;
    this.connection = options.connection;
    const fetchImpl = options.fetch ?? globalThis.fetch;
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
    });
    const redactedTokens = {
      getToken: async () => {
        const token = await tokens.getToken();
        redactor.add(token);
        return token;
      },
      invalidate: (token: string) => tokens.invalidate(token),
    };
    this.connectivity = new Connectivity({
      bus,
      probe: httpProbe(options.connection.authUrl, { fetch: fetchImpl }),
      clock,
      ...timers,
    });
    this.client = createApiClient({
      baseUrl: options.connection.baseUrl,
      tokens: redactedTokens,
      fetch: fetchImpl,
      clock,
      onReachability: this.connectivity.report,
    });
    const scoped = (scope: string) => {
      const child = log.child(scope);
      return (line: string) => child.info(line);
    };
    this.sync = new SyncEngine({
      store,
      client: this.client,
      connectivity: this.connectivity,
      bus,
      clock,
      ...timers,
      log: scoped('sync'),
    });
    this.bulk = new BulkSubmitter({
      store,
      client: this.client,
      bus,
      clock,
      ...timers,
      log: scoped('bulk'),
    });
    this.poller = new OrderPoller({
      store,
      client: this.client,
      bus,
      clock,
      ...timers,
      log: scoped('poller'),
    });
    this.orders = createOrderActions({ store, client: this.client, bus, log: scoped('orders') });
  }

  /** Starts background work: sync loop, resumed batches, order polling. */
  start(): void {
    this.sync.start();
    this.bulk.resume();
    this.poller.start();
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.sync.stop(), this.bulk.stop(), this.poller.stop()]);
    this.connectivity.stop();
  }
}
