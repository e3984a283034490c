import { z } from 'zod';
import { OfflineReason, OutboxCountEvent, SyncStateEvent } from '../core-events';
import { ProtocolColumn, ProtocolColumns } from '../protocol-views';
import { StorageProblem, StoreNotice } from '../store-views';
import { DEFAULT_RETENTION_YEARS, RetentionYears, StaffList } from '../activity-views';
import { call, None, Nothing, read, type AreaChannels } from './channel';
import { ConnectionView } from './connections';

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

/** The screen shown first after connecting (and at `#/`): Settings, "Start on". */
export const StartScreen = z.enum(['dashboard', 'protocols']);
export type StartScreen = z.infer<typeof StartScreen>;
/** Protocols, as before the dashboard came, so that a desk's habit does not change by itself. */
export const DEFAULT_START_SCREEN: StartScreen = 'dashboard';

/** Everything the header needs at start, before the first event arrives. */
export const AppState = z.object({
  version: z.string(),
  transport: z.enum(['electron', 'browser']),
  platform: z.string(),
  connection: ConnectionView.nullable(),
  online: z.boolean(),
  /** Why nothing is sent (no network, an answer not the API's, credentials refused); null online. */
  offlineReason: OfflineReason.nullable(),
  sync: SyncStateEvent,
  outbox: OutboxCountEvent,
  theme: Theme,
  /** Desktop notifications (a toast in the browser host) for shipped, cancelled and settled work. */
  notifications: z.boolean(),
  /** The screen shown first after connecting. */
  startScreen: StartScreen.default(DEFAULT_START_SCREEN),
  /** The protocol list's columns shown on this desk, in the list's order. */
  protocolColumns: ProtocolColumns.default([...ProtocolColumn.options]),
  /** Where client secrets are kept: the system keychain, or memory for this run only. */
  secretStorage: z.enum(['system-keychain', 'memory']).default('system-keychain'),
  /** What the user must be told until they dismiss it (a damaged store recovered). */
  notices: z.array(StoreNotice).default([]),
  /** The disk under the data folder refuses writes (full, read-only), or null. */
  storage: StorageProblem.default(null),
  /** The people who share this desk (Settings), and who of them is at it now (the header). */
  staff: StaffList.default([]),
  atDesk: z.string().nullable().default(null),
  /** This desk as the activity record names it: the computer's name and the OS account. */
  desk: z.object({ name: z.string(), osUser: z.string() }).default({ name: '', osUser: '' }),
  /** Years the activity record is kept. */
  retentionYears: RetentionYears.default(DEFAULT_RETENTION_YEARS),
});
export type AppState = z.infer<typeof AppState>;

/** http(s) only: tracking and partner links; anything else is refused. */
export const ExternalUrl = z.url({ protocol: /^https?$/, error: 'an http or https URL' });

/** app.*: the window's state, theme, notifications, notices, links. */
export const appChannels = {
  'app.state': read(None, AppState, ['status', 'connection', 'settings', 'protocols', 'jobs']),
  'app.setTheme': call(z.object({ theme: Theme }), Nothing),
  'app.openExternal': call(z.object({ url: ExternalUrl }), Nothing),
  'app.setNotifications': call(z.object({ enabled: z.boolean() }), Nothing),
  /** The screen shown first after connecting: the dashboard or the protocols. */
  'app.setStartScreen': call(z.object({ screen: StartScreen }), Nothing),
  /** Shows these of the protocol list's columns (and hides the others) on this desk. */
  'app.setProtocolColumns': call(z.object({ columns: ProtocolColumns }), Nothing),
  /** The user has read a notice (app.state's notices): it is no longer shown. */
  'app.dismissNotice': call(z.object({ id: z.string().min(1).max(100) }), Nothing),
  /**
   * The window is shown or hidden, or its user did something (said at most every 30 s): the
   * order poller is fast while a shown window was used in the last five minutes, else slow.
   */
  'app.presence': call(z.object({ visible: z.boolean(), input: z.boolean() }).strict(), Nothing),
} as const satisfies AreaChannels<'app'>;
