import { systemClock, type Clock } from '../clock';
import { BatchesRepo } from './batches-repo';
import { BackgroundCheckpointer } from './checkpointer';
import { ConnectionsRepo } from './connections-repo';
import { closeStore, openStore, type Db, type OpenStoreOptions } from './db';
import { OrdersRepo } from './orders-repo';
import { OutboxRepo } from './outbox-repo';
import { ProductsRepo } from './products-repo';
import { ProtocolsRepo } from './protocols-repo';
import { runTransaction } from './rows';
import { SettingsRepo } from './settings-repo';
import { ShippingMethodsRepo } from './shipping-methods-repo';
import { SyncStateRepo } from './sync-state-repo';

export interface LocalStore {
  db: Db;
  connections: ConnectionsRepo;
  settings: SettingsRepo;
  products: ProductsRepo;
  shippingMethods: ShippingMethodsRepo;
  protocols: ProtocolsRepo;
  outbox: OutboxRepo;
  orders: OrdersRepo;
  batches: BatchesRepo;
  syncState: SyncStateRepo;
  /** Runs `fn` in one transaction (nested calls become savepoints): for writes across repositories. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface LocalStoreOptions extends OpenStoreOptions {
  /** Time source of local timestamps; default the system clock. */
  clock?: Clock;
  /** WAL checkpoints on a worker thread (BackgroundCheckpointer) for a file; default true. */
  backgroundCheckpoints?: boolean;
  /** Where the store reports what the user need not see (the checkpointer falling back). */
  log?: (line: string) => void;
}

/** Opens the store at `file` (":memory:" for tests) and builds every repository on it. */
export function createLocalStore(file: string, options: LocalStoreOptions = {}): LocalStore {
  const clock = options.clock ?? systemClock;
  const db = openStore(file, options);
  const inMemory = file === ':memory:' || file === '';
  const checkpointer =
    !inMemory && options.backgroundCheckpoints !== false
      ? new BackgroundCheckpointer(db, file, options.log ? { log: options.log } : {})
      : null;
  const outbox = new OutboxRepo(db, clock);
  const protocols = new ProtocolsRepo(db, clock, outbox);
  const orders = new OrdersRepo(db, clock);
  return {
    db,
    connections: new ConnectionsRepo(db, clock),
    settings: new SettingsRepo(db),
    products: new ProductsRepo(db),
    shippingMethods: new ShippingMethodsRepo(db),
    protocols,
    outbox,
    orders,
    batches: new BatchesRepo(db, clock, protocols, orders),
    syncState: new SyncStateRepo(db),
    transaction: (fn) => runTransaction(db, fn),
    close: () => {
      checkpointer?.close();
      closeStore(db);
    },
  };
}
