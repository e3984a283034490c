export { createLocalStore, type LocalStore, type LocalStoreOptions } from './local-store';
export { openAppStore, DataDirInUseError, type AppStore } from './app-store';
