import { on } from '../lib/ipc';
import { subscribeToNotifications } from '../lib/notifier';
import { SYNC_TOPIC, useAppStore } from './app-store';
import { useToastStore } from './toast-store';
import { useBatchesStore } from './batches-store';
import { useCatalogStore } from './catalog-store';
import { useOrdersStore } from './orders-store';
import { useProtocolsStore } from './protocols-store';
import { useSettingsStore } from './settings-store';
import { useUpdatesStore } from './updates-store';
import type { ConnectionView } from '@shared/ipc';
import type { StoreNotice } from '@shared/store-views';

/** Makes `connection` the active one; what belonged to another connection is dropped. */
export function applyConnection(connection: ConnectionView | null): void {
  const before = useAppStore.getState().connection;
  useAppStore.getState().setConnection(connection);
  if (before?.id !== connection?.id) dropStoreState();
}

/**
 * Another store is the active one: the screens' own state that named its rows (a selection, a
 * filter, an open batch) goes. The data itself is read again by the live queries (main says that
 * everything changed).
 */
function dropStoreState(): void {
  useCatalogStore.getState().reset();
  useProtocolsStore.getState().reset();
  useSettingsStore.getState().reset();
  useOrdersStore.getState().reset();
  useBatchesStore.getState().reset();
  void useAppStore.getState().refresh();
}

/** New notices: a damaged store was replaced by a recovered one. */
function applyNotices(notices: StoreNotice[]): void {
  const known = new Set(useAppStore.getState().notices.map((n) => n.id));
  useAppStore.getState().setNotices(notices);
  if (notices.some((n) => !known.has(n.id))) dropStoreState();
}

/**
 * Feeds main's events into the stores (the live queries hear `changed` themselves). Returns the
 * function that unsubscribes.
 */
export function subscribeToEvents(): () => void {
  const app = useAppStore.getState;
  const offs = [
    on('connection-changed', ({ connection }) => applyConnection(connection)),
    on('connectivity', ({ online, reason }) => app().setConnectivity(online, reason)),
    on('outbox-count', (outbox) => app().setOutbox(outbox)),
    on('store-notices', ({ notices }) => applyNotices(notices)),
    on('storage', ({ problem }) => app().setStorage(problem)),
    on('update-status', (view) => useUpdatesStore.getState().apply(view)),
    subscribeToNotifications(),
    on('sync-state', (sync) => {
      app().setSync(sync);
      // A sync that succeeded makes an earlier "Sync failed" toast untrue.
      if (sync.phase === 'idle' && sync.lastSyncedAt) useToastStore.getState().settle(SYNC_TOPIC);
    }),
    on('host-link', ({ up }) => {
      app().setHostUp(up);
      // Back: what the header shows is read again (the events meanwhile were missed).
      if (up) void app().refresh();
    }),
  ];
  return () => offs.forEach((off) => off());
}
