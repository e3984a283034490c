export { openStore, closeStore, schemaVersion, type Db, type OpenStoreOptions } from './db';
export { StoreError, CorruptRowError, StoreDamagedError, type StoreErrorCode } from './errors';
export { SCHEMA_VERSION } from './migrations';
export { SettingsRepo, SETTING_KEYS } from './settings-repo';
export { SyncStateRepo, SYNC_KEYS } from './sync-state-repo';
export { connectionStoreFile, APP_STORE_FILE, LEGACY_STORE_FILE } from './store-files';
