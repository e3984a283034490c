export { createLocalStore, type LocalStore, type LocalStoreOptions } from './local-store';
export { openStore, closeStore, schemaVersion, type Db, type OpenStoreOptions } from './db';
export { StoreError, CorruptRowError, type StoreErrorCode } from './errors';
export { SCHEMA_VERSION } from './migrations';
export { ConnectionsRepo, StoredConnection } from './connections-repo';
export { SettingsRepo, SETTING_KEYS } from './settings-repo';
export { SyncStateRepo, SYNC_KEYS } from './sync-state-repo';
export { ProductsRepo, type ProductQuery } from './products-repo';
export { ShippingMethodsRepo } from './shipping-methods-repo';
export {
  ProtocolsRepo,
  type ProtocolListQuery,
  type ProtocolPage,
  type ServerUpsert,
} from './protocols-repo';
export { OutboxRepo, type OutboxEntry, type OutboxEffect } from './outbox-repo';
export * from './protocol-model';
export { normalizeForSearch, searchTextOf } from './protocol-search';
export {
  OrdersRepo,
  OrderSource,
  type OrderUpsert,
  type OrderQuery,
  type DueOrder,
} from './orders-repo';
export { mergeOrder, isPollFinal, POLL_FINAL_STATUSES } from './order-merge';
export { BatchesRepo } from './batches-repo';
export * from './batch-model';
