import type { ActivityRepo } from '../activity/activity-repo';
import type { ProductsRepo } from '../catalog/products-repo';
import type { ProtocolStore } from '../protocols/protocol-store';
import type { SyncStateRepo } from '../db/sync-state-repo';
import type { OrdersRepo } from './orders-repo';

/** The part of a connection's store that order work uses (protocol-store.ts says why). */
export interface OrderStore extends ProtocolStore {
  orders: OrdersRepo;
  products: ProductsRepo;
  syncState: SyncStateRepo;
  activity: ActivityRepo;
}
