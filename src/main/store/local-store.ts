import { systemClock, type Clock } from '../clock';
import { BatchesRepo } from '../bulk/batches-repo';
import { BackgroundCheckpointer } from './checkpointer';
import { ConnectionsRepo } from '../connections/connections-repo';
import { closeStore, openStore, type Db, type OpenStoreOptions } from './db';
import { OrdersRepo } from '../orders/orders-repo';
import { OutboxRepo } from './outbox-repo';
import { ProductsRepo } from '../catalog/products-repo';
import { ProtocolsRepo } from '../protocols/protocols-repo';
import { runTransaction } from './rows';
import { SettingsRepo } from './settings-repo';
import { ShippingMethodsRepo } from '../catalog/shipping-methods-repo';
import { StoreWorker, type WritePlan } from './store-worker';
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
  /**
   * Runs the write plan that `build` makes in one transaction on the store's worker thread, off
   * the main thread (see StoreWorker.write for its outcomes). Null, without calling `build`, when
   * no worker is running (a store in memory, a worker not ready yet or stopped): the caller then
   * writes on the main connection.
   */
  writeOffThread(build: () => WritePlan): Promise<unknown[][]> | null;
  close(): void;
}

export interface LocalStoreOptions extends OpenStoreOptions {
  /** Time source of local timestamps; default the system clock. */
  clock?: Clock;
  /**
   * For a file: a worker thread with its own connection (StoreWorker) that does the WAL
   * checkpoints and the bulk run's commits; default true.
   */
  worker?: boolean;
  /** Where the store reports what the user need not see (the worker's work falling back). */
  log?: (line: string) => void;
}

/** Opens the store at `file` (":memory:" for tests) and builds every repository on it. */
export function createLocalStore(file: string, options: LocalStoreOptions = {}): LocalStore {
  const clock = options.clock ?? systemClock;
  const db = openStore(file, options);
  const inMemory = file === ':memory:' || file === '';
  const worker = !inMemory && options.worker !== false ? new StoreWorker(file) : null;
  const checkpointer = worker
    ? new BackgroundCheckpointer(db, worker, options.log ? { log: options.log } : {})
    : null;
  worker?.on('stopped', (reason) => {
    if (reason !== 'closed')
      options.log?.(`store worker stopped (${reason}): writes stay on the main thread`);
  });
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
    writeOffThread: (build) => (worker?.running ? worker.write(build()) : null),
    close: () => {
      checkpointer?.close();
      worker?.close();
      closeStore(db);
    },
  };
}
