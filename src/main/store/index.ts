export { createLocalStore, type LocalStore, type LocalStoreOptions } from './local-store';
export { openStore, closeStore, schemaVersion, type Db, type OpenStoreOptions } from './db';
export { StoreError, CorruptRowError, type StoreErrorCode } from './errors';
export { SCHEMA_VERSION } from './migrations';
export { ConnectionsRepo, StoredConnection } from '../connections/connections-repo';
export { SettingsRepo, SETTING_KEYS } from './settings-repo';
export { SyncStateRepo, SYNC_KEYS } from './sync-state-repo';
export { ProductsRepo, type ProductQuery } from '../catalog/products-repo';
export { ShippingMethodsRepo } from '../catalog/shipping-methods-repo';
export {
  ProtocolsRepo,
  type ProtocolListQuery,
  type ProtocolPage,
  type ServerUpsert,
} from '../protocols/protocols-repo';
export { OutboxRepo, type OutboxEntry, type OutboxEffect } from './outbox-repo';
export * from '../protocols/protocol-model';
export { normalizeForSearch, searchTextOf } from '../protocols/protocol-search';
export {
  OrdersRepo,
  OrderSource,
  type OrderUpsert,
  type OrderQuery,
  type DueOrder,
} from '../orders/orders-repo';
export { mergeOrder, isPollFinal, POLL_FINAL_STATUSES } from '../orders/order-merge';
export { BatchesRepo } from '../bulk/batches-repo';
export * from '../bulk/batch-model';
