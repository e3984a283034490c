import { on } from '../lib/ipc';
import { subscribeToNotifications } from '../lib/notifier';
import { useAppStore } from './app-store';
import { useBatchesStore } from './batches-store';
import { useCatalogStore } from './catalog-store';
import { useProtocolsStore } from './protocols-store';
import { noteOrdersMaybeChanged, noteOrderStatus, resetOrders } from './orders-live';
import { useSettingsStore } from './settings-store';
import { useUpdatesStore } from './updates-store';
import type { ConnectionView } from '../../../shared/ipc';
import type { StoreNotice } from '../../../shared/store-views';

/** Makes `connection` the active one; what belonged to another connection is dropped. */
export function applyConnection(connection: ConnectionView | null): void {
  const before = useAppStore.getState().connection;
  useAppStore.getState().setConnection(connection);
  if (before?.id !== connection?.id) dropStoreData();
}

/** What was read from the store of the active connection is dropped, to be read again. */
function dropStoreData(): void {
  useCatalogStore.getState().reset();
  useProtocolsStore.getState().reset();
  useSettingsStore.getState().reset();
  resetOrders();
  useBatchesStore.getState().reset();
  void useAppStore.getState().refresh();
}

/** New notices: a damaged store was replaced by a recovered one, so its data is read again. */
function applyNotices(notices: StoreNotice[]): void {
  const known = new Set(useAppStore.getState().notices.map((n) => n.id));
  useAppStore.getState().setNotices(notices);
  if (notices.some((n) => !known.has(n.id))) dropStoreData();
}

/**
 * Feeds main's events into the stores. A switch of connection empties what belonged to the old
 * one; a finished sync refreshes what is on screen. Returns the function that unsubscribes.
 */
export function subscribeToEvents(): () => void {
  const app = useAppStore.getState;
  const offs = [
    on('connection-changed', ({ connection }) => applyConnection(connection)),
    on('connectivity', ({ online, reason }) => app().setConnectivity(online, reason)),
    on('outbox-count', (outbox) => app().setOutbox(outbox)),
    on('store-notices', ({ notices }) => applyNotices(notices)),
    on('storage', ({ problem }) => app().setStorage(problem)),
    on('outbox-count', () => useProtocolsStore.getState().changed()),
    on('order-status', noteOrderStatus),
    on('update-status', (view) => useUpdatesStore.getState().apply(view)),
    on('batch-progress', () => noteOrdersMaybeChanged()),
    subscribeToNotifications(),
    on('batch-progress', (progress) => useBatchesStore.getState().onProgress(progress)),
    on('sync-state', (sync) => {
      const before = app().sync;
      app().setSync(sync);
      useProtocolsStore.getState().changed();
      if (sync.phase === 'idle' && sync.lastSyncedAt && sync.lastSyncedAt !== before.lastSyncedAt) {
        useCatalogStore.getState().refresh();
        noteOrdersMaybeChanged();
      }
    }),
  ];
  return () => offs.forEach((off) => off());
}
