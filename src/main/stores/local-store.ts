import { ActivityRepo } from '../activity/activity-repo';
import { BatchesRepo } from '../bulk/batches-repo';
import type { BatchStore } from '../bulk/batch-store';
import { ProductsRepo } from '../catalog/products-repo';
import { ShippingMethodsRepo } from '../catalog/shipping-methods-repo';
import { systemClock, type Clock } from '../clock';
import { JobsRepo } from '../jobs/jobs-repo';
import { OrdersRepo } from '../orders/orders-repo';
import { ProtocolsRepo } from '../protocols/protocols-repo';
import { UndoHistory } from '../protocols/undo-history';
import { closeStore, openStore, type Db, type OpenStoreOptions } from '../db/db';
import { runTransaction } from '../db/rows';
import { watchChanges, type ChangeListener } from '../db/store-changes';
import { watchFaults, type FaultListener } from '../db/store-faults';
import { SyncStateRepo } from '../db/sync-state-repo';

/**
 * The store of one connection (connections/<id>.db: store-files.ts) and every repository on it:
 * one database connection, owned by the main process (one owner: no second connection, no
 * worker). Each subsystem's repository reads and writes its own tables; a write across
 * repositories is one `transaction`. The saved connections and the app's settings are in the app
 * store (app-store.ts).
 */
export interface LocalStore extends BatchStore {
  db: Db;
  products: ProductsRepo;
  shippingMethods: ShippingMethodsRepo;
  protocols: ProtocolsRepo;
  jobs: JobsRepo;
  undo: UndoHistory;
  orders: OrdersRepo;
  batches: BatchesRepo;
  syncState: SyncStateRepo;
  /** The activity record (audit trail): appended, read, purged; never changed. */
  activity: ActivityRepo;
  /**
   * Runs `fn` in one transaction that begins IMMEDIATE (nested calls become savepoints): for
   * writes across repositories.
   */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export interface LocalStoreOptions extends OpenStoreOptions {
  /** Time source of local timestamps; default the system clock. */
  clock?: Clock;
  /** Told of every fault of the file (damaged, full, read-only) any statement meets. */
  faults?: FaultListener;
  /** Told, after each burst of writes, which subjects they changed (the `changed` event). */
  changes?: ChangeListener;
}

/** Opens the store at `file` (":memory:" for tests) and builds every repository on it. */
export function createLocalStore(file: string, options: LocalStoreOptions = {}): LocalStore {
  const clock = options.clock ?? systemClock;
  const db = openStore(file, options);
  if (options.faults) watchFaults(db, options.faults);
  if (options.changes) watchChanges(db, options.changes);
  const jobs = new JobsRepo(db, clock);
  const orders = new OrdersRepo(db, clock);
  return {
    db,
    products: new ProductsRepo(db),
    shippingMethods: new ShippingMethodsRepo(db),
    protocols: new ProtocolsRepo(db, clock, jobs),
    jobs,
    undo: new UndoHistory(db, clock),
    orders,
    batches: new BatchesRepo(db, clock, jobs, orders),
    syncState: new SyncStateRepo(db),
    activity: new ActivityRepo(db),
    transaction: (fn) => runTransaction(db, fn),
    close: () => closeStore(db),
  };
}
