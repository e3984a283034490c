import { on } from '../lib/ipc';
import { LiveQuery } from '../lib/live-query';
import { subscribeToNotifications } from '@renderer/stores/notifier';
import { SYNC_TOPIC, useAppStore } from './app-store';
import { useToastStore } from './toast-store';
import { useActivityStore } from './activity-store';
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
  useActivityStore.getState().reset();
  // Their links name another store's orders and protocols.
  useToastStore.getState().clearHistory();
}

/** New notices: a damaged store was replaced by a recovered one. */
function applyNotices(notices: StoreNotice[]): void {
  const known = new Set(useAppStore.getState().notices.map((n) => n.id));
  useAppStore.getState().setNotices(notices);
  if (notices.some((n) => !known.has(n.id))) dropStoreState();
}

/**
 * The header's truth: the connection's state (online or why not, the sync, what waits to be
 * sent, notices, the disk) and who is at the desk are one live query of app.state, read again on
 * every change of the `status`, `connection` or `settings` subject; what it finds is applied to
 * the app store.
 */
function followStatus(): () => void {
  const status = new LiveQuery({
    read: (read) => read('app.state', {}),
    onState: ({ data }) => {
      if (!data) return; // a failed read keeps what is shown (the host link says if it is down)
      const app = useAppStore.getState();
      applyConnection(data.connection);
      applyNotices(data.notices);
      app.setConnectivity(data.online, data.offlineReason);
      app.setOutbox(data.outbox);
      app.setStorage(data.storage);
      app.setSync(data.sync);
      app.setDesk(data);
      // A sync that succeeded makes an earlier "Sync failed" toast untrue.
      if (data.sync.phase === 'idle' && data.sync.lastSyncedAt)
        useToastStore.getState().settle(SYNC_TOPIC);
    },
  });
  return () => status.close();
}

/**
 * Feeds main's pushes into the stores (the live queries hear `changed` themselves). Returns the
 * function that unsubscribes.
 */
export function subscribeToEvents(): () => void {
  const app = useAppStore.getState;
  const offs = [
    // The active connection comes with the status query alone: applied from a push as well, an
    // answer read just before a switch could put the old connection back for a moment.
    followStatus(),
    on('update-status', (view) => useUpdatesStore.getState().apply(view)),
    subscribeToNotifications(),
    on('host-link', ({ up }) => app().setHostUp(up)),
  ];
  return () => offs.forEach((off) => off());
}
