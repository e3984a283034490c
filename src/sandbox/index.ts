import type { StoreKey } from '@shared/store-cipher';
import { systemClock, type Clock } from './clock';
import { sandboxControls, type SandboxControls } from './controls';
import { FulfillmentSimulator } from './fulfillment/simulator';
import { FaultInjector } from './http/faults';
import { createHttpServer } from './http/server';
import { SandboxOptions, type SandboxOptionsInput } from './options';
import { OrderService } from './orders-service';
import { ProtocolService } from './protocols-service';
import { registerCatalogRoutes } from './routes/catalog';
import type { RouteContext } from './routes/context';
import { registerControlRoutes } from './routes/controls';
import { registerMetaRoutes } from './routes/meta';
import { registerOrderRoutes } from './routes/orders';
import { registerPartnerRoutes } from './routes/partner';
import { registerProtocolRoutes } from './routes/protocols';
import { registerTokenRoutes } from './routes/token';
import { DEMO_PARTNER } from './seed/partner';
import { SEED_PRODUCTS } from './seed/products';
import { openDatabase } from './store/db';
import { DeliveryStore } from './store/deliveries';
import { OrderStore } from './store/orders';
import { PartnerStore } from './store/partners';
import { ProductStore } from './store/products';
import { ProtocolStore } from './store/protocols';
import { WebhookDispatcher } from './webhooks/dispatcher';

export { SandboxOptions } from './options';
export { SandboxControlError, type SandboxControls } from './controls';
export type { SandboxOptionsInput } from './options';

export interface SandboxRuntime {
  /** Opens the database file encrypted with this key (the app's embedded sandbox); plain without. */
  dbKey?: StoreKey;
  clock?: Clock;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}

export interface RunningSandbox {
  /** http://HOST:PORT */
  origin: string;
  /** {base_url}: http://HOST:PORT/v1 */
  baseUrl: string;
  /** {auth_url}: the token endpoint is `${authUrl}/oauth2/token`. */
  authUrl: string;
  tokenUrl: string;
  port: number;
  clientId: string;
  clientSecret: string;
  partnerId: string;
  /** The /_sandbox controls as functions, for a host running the sandbox in-process. */
  controls: SandboxControls;
  close(): Promise<void>;
}

/** Starts the Order Fulfillment sandbox service; resolves once it listens. */
export async function startSandbox(
  input: SandboxOptionsInput = {},
  runtime: SandboxRuntime = {},
): Promise<RunningSandbox> {
  const options = SandboxOptions.parse(input);
  const clock = runtime.clock ?? systemClock;
  const log = runtime.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const db = openDatabase(options.db, runtime.dbKey);

  const partners = new PartnerStore(db);
  const products = new ProductStore(db);
  const protocolStore = new ProtocolStore(db);
  const orderStore = new OrderStore(db);
  const deliveries = new DeliveryStore(db);
  const now = clock.now();
  partners.ensurePartner(DEMO_PARTNER, options.clientId, options.clientSecret, now);
  products.seed(SEED_PRODUCTS, now);

  const dispatcher = new WebhookDispatcher({
    clock,
    deliveries,
    partners,
    timeScale: options.timeScale,
    allowLoopback: options.allowLoopbackWebhooks,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
  });
  const simulator = new FulfillmentSimulator(clock, orderStore, () => orders, log);
  const orders = new OrderService({
    db,
    clock,
    orders: orderStore,
    products,
    partners,
    deliveries,
    stepIntervalMs:
      options.autoAdvance > 0 ? (options.autoAdvance * 1000) / options.timeScale : null,
    onScheduled: () => {
      simulator.poke();
      dispatcher.poke();
    },
  });
  const protocols = new ProtocolService({ clock, protocols: protocolStore, products, partners });
  const faults = new FaultInjector();

  const app = createHttpServer({
    authenticate: (token) => partners.partnerForToken(token, clock.now()),
    faults,
    clock,
    log,
  });
  const ctx: RouteContext = {
    clock,
    orders,
    protocols,
    products,
    partners,
    deliveries,
    faults,
    tokenTtlSeconds: options.tokenTtl,
    allowLoopbackWebhooks: options.allowLoopbackWebhooks,
  };
  registerMetaRoutes(app);
  registerTokenRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerProtocolRoutes(app, ctx);
  registerCatalogRoutes(app, ctx);
  registerPartnerRoutes(app, ctx);
  registerControlRoutes(app, ctx);

  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const origin = `http://${host}:${port}`;

  // Resume what a previous run left: due fulfillment steps and pending webhooks.
  simulator.poke();
  dispatcher.poke();

  let closing: Promise<void> | null = null;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    authUrl: origin,
    tokenUrl: `${origin}/oauth2/token`,
    port,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    partnerId: DEMO_PARTNER.id,
    controls: sandboxControls({
      partnerId: DEMO_PARTNER.id,
      orders,
      protocols,
      products,
      faults,
      clock,
    }),
    close: () =>
      (closing ??= (async () => {
        simulator.close();
        await app.close();
        await dispatcher.close();
        db.close();
      })()),
  };
}
