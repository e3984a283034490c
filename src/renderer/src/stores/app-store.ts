import { create } from 'zustand';
import type { AppState, ConnectionView, Theme } from '@shared/ipc';
import { DEFAULT_START_SCREEN, type StartScreen } from '@shared/ipc/app';
import { ProtocolColumn, inListOrder } from '@shared/protocol-views';
import type { StorageProblem, StoreNotice } from '@shared/store-views';
import { call, describeError, errorMessage } from '../lib/ipc';
import { toast, useToastStore } from './toast-store';

type Sync = AppState['sync'];
type Outbox = AppState['outbox'];

interface AppStore {
  status: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  version: string;
  transport: AppState['transport'] | null;
  platform: string;
  connection: ConnectionView | null;
  online: boolean;
  /** Why nothing is sent while offline: no network, an answer not the API's, credentials refused. */
  offlineReason: AppState['offlineReason'];
  sync: Sync;
  outbox: Outbox;
  theme: Theme;
  /** Desktop notifications (toasts in the browser host) for shipped, cancelled and settled work. */
  notifications: boolean;
  /** The screen shown first after connecting (Settings, "Start on"). */
  startScreen: StartScreen;
  /** The protocol list's columns shown on this desk, in the list's order. */
  protocolColumns: readonly ProtocolColumn[];
  /** Where client secrets are kept (the Connect screen says so). */
  secretStorage: AppState['secretStorage'];
  /** Damaged stores recovered, shown until dismissed. */
  notices: StoreNotice[];
  /** The disk refuses writes (full, read-only), or null. */
  storage: StorageProblem;
  /** The people who share this desk, and who of them is at it (named by the activity record). */
  staff: readonly string[];
  atDesk: string | null;
  /** This computer's name and OS account, as the activity record names them. */
  desk: AppState['desk'];
  /** Years the activity record is kept. */
  retentionYears: number;
  /** The browser host's page reaches the host (always true in Electron). */
  hostUp: boolean;
  setHostUp(up: boolean): void;
  load(): Promise<void>;
  setConnection(connection: ConnectionView | null): void;
  setConnectivity(online: boolean, reason: AppState['offlineReason']): void;
  setSync(sync: Sync): void;
  setOutbox(outbox: Outbox): void;
  setNotices(notices: StoreNotice[]): void;
  setStorage(storage: StorageProblem): void;
  setDesk(desk: Pick<AppState, 'staff' | 'atDesk' | 'desk' | 'retentionYears'>): void;
  /** Picks who is at the desk (null: nobody); shown at once, kept by main. */
  chooseAtDesk(name: string | null): Promise<void>;
  dismissNotice(id: string): Promise<void>;
  setTheme(theme: Theme): Promise<void>;
  setNotifications(enabled: boolean): Promise<void>;
  setStartScreen(screen: StartScreen): Promise<void>;
  /** A person's choice of the list's columns: shown at once, kept by main (a step of the undo history). */
  setProtocolColumns(columns: readonly ProtocolColumn[]): Promise<void>;
  /** Shows the columns main has set already (an undo or redo of a 'columns' step). */
  showProtocolColumns(columns: readonly ProtocolColumn[]): void;
  syncNow(): Promise<void>;
}

/** The toasts about syncing: a sync that succeeds (here or by itself) takes them away. */
export const SYNC_TOPIC = 'sync';

/** The session as the header and the router need it: app.state at start, then the events. */
export const useAppStore = create<AppStore>((set, get) => ({
  status: 'loading',
  loadError: null,
  version: '',
  transport: null,
  platform: '',
  connection: null,
  online: true,
  offlineReason: null,
  sync: { phase: 'idle', lastSyncedAt: null, error: null, skipped: [] },
  outbox: { pending: 0, inDoubt: 0, conflicts: 0 },
  theme: 'system',
  notifications: true,
  startScreen: DEFAULT_START_SCREEN,
  protocolColumns: ProtocolColumn.options,
  secretStorage: 'system-keychain',
  notices: [],
  storage: null,
  staff: [],
  atDesk: null,
  desk: { name: '', osUser: '' },
  retentionYears: 6,
  hostUp: true,

  async load() {
    set({ status: 'loading', loadError: null });
    const result = await call('app.state', {});
    if (!result.ok) {
      set({ status: 'failed', loadError: errorMessage(result.error) });
      return;
    }
    const s = result.value;
    set({
      status: 'ready',
      version: s.version,
      transport: s.transport,
      platform: s.platform,
      connection: s.connection,
      online: s.online,
      offlineReason: s.offlineReason,
      sync: s.sync,
      outbox: s.outbox,
      theme: s.theme,
      notifications: s.notifications,
      startScreen: s.startScreen,
      protocolColumns: s.protocolColumns,
      secretStorage: s.secretStorage,
      notices: s.notices,
      storage: s.storage,
      staff: s.staff,
      atDesk: s.atDesk,
      desk: s.desk,
      retentionYears: s.retentionYears,
    });
  },

  setConnection: (connection) => set({ connection }),
  setConnectivity: (online, offlineReason) => set({ online, offlineReason }),
  setSync: (sync) => set({ sync }),
  setOutbox: (outbox) => set({ outbox }),
  setNotices: (notices) => set({ notices }),
  setStorage: (storage) => set({ storage }),
  setHostUp: (hostUp) => set({ hostUp }),
  setDesk: ({ staff, atDesk, desk, retentionYears }) =>
    set({ staff, atDesk, desk, retentionYears }),

  async chooseAtDesk(name) {
    const previous = get().atDesk;
    set({ atDesk: name });
    const result = await call('staff.choose', { name });
    if (!result.ok) {
      set({ atDesk: previous });
      const { title, detail } = describeError(result.error);
      toast.error(`Who is at the desk could not be saved. ${title}`, detail);
    }
  },

  async dismissNotice(id) {
    const before = get().notices;
    set({ notices: before.filter((n) => n.id !== id) });
    const result = await call('app.dismissNotice', { id });
    if (!result.ok) {
      set({ notices: before });
      toast.error('The notice could not be dismissed.', result.error.message);
    }
  },

  async setTheme(theme) {
    const previous = get().theme;
    set({ theme });
    const result = await call('app.setTheme', { theme });
    if (!result.ok) {
      set({ theme: previous });
      const { title, detail } = describeError(result.error);
      toast.error(`The theme could not be saved. ${title}`, detail);
    }
  },

  async setProtocolColumns(columns) {
    const previous = get().protocolColumns;
    const shown = inListOrder(columns);
    set({ protocolColumns: shown });
    const result = await call('app.setProtocolColumns', { columns: shown });
    if (!result.ok) {
      set({ protocolColumns: previous });
      const { title, detail } = describeError(result.error);
      toast.error(`The columns could not be saved. ${title}`, detail);
    }
  },

  showProtocolColumns: (columns) => set({ protocolColumns: inListOrder(columns) }),

  async setNotifications(enabled) {
    const previous = get().notifications;
    set({ notifications: enabled });
    const result = await call('app.setNotifications', { enabled });
    if (!result.ok) {
      set({ notifications: previous });
      const { title, detail } = describeError(result.error);
      toast.error(`The notifications setting could not be saved. ${title}`, detail);
    }
  },

  async setStartScreen(screen) {
    const previous = get().startScreen;
    set({ startScreen: screen });
    const result = await call('app.setStartScreen', { screen });
    if (!result.ok) {
      set({ startScreen: previous });
      const { title, detail } = describeError(result.error);
      toast.error(`The screen to start on could not be saved. ${title}`, detail);
    }
  },

  async syncNow() {
    const result = await call('sync.now', {});
    // Main's message says what happened and what is kept; the header already shows why.
    if (!result.ok && result.error.kind === 'unauthorized') {
      useToastStore.getState().push('error', 'Nothing was synced.', result.error.message, {
        link: { route: '/connect', label: 'Enter the new client secret' },
        topic: SYNC_TOPIC,
      });
    } else if (!result.ok) toast.error('Sync failed.', result.error.message, { topic: SYNC_TOPIC });
    else useToastStore.getState().settle(SYNC_TOPIC);
  },
}));

export type OfflineReason = NonNullable<AppState['offlineReason']>;

/** Why nothing is sent, in words (the header's tooltip, the batch screen's notice). */
export const OFFLINE_TEXT: Record<OfflineReason, string> = {
  network: 'The server cannot be reached. Changes are kept and sent when it is back.',
  'not-api':
    "The network is not reaching the server (an answer that is not the API's, such as a Wi-Fi sign-in page). Sign in to the network; changes are kept and sent when the server is back.",
  'credentials-rejected':
    "The server rejected this connection's credentials, so nothing is sent. Enter the new client secret in Connection (Edit on the connection); everything waiting is then sent.",
  'credentials-missing':
    "This connection's client secret is not in the keychain (it was removed, or the keychain is locked), so nothing is sent. Unlock the keychain, or enter the secret again in Connection (Edit on the connection); everything waiting is then sent.",
};

export const unsyncedTotal = (o: Outbox): number => o.pending + o.inDoubt + o.conflicts;
export const isMac = (platform: string): boolean => platform === 'darwin' || /mac/i.test(platform);
