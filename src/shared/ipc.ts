import { z } from 'zod';
import {
  AppOrder,
  PartnerSettings,
  PartnerSettingsPatch,
  ProductRead,
  ProductStatusRead,
  ShippingMethodInfo,
} from './api';
import { Connection, ConnectionKind } from './connection';
import { CsvFile } from './csv-file';
import { ProtocolInput } from './protocol-input';
import {
  BatchId,
  BatchItemView,
  BatchReviewView,
  BatchView,
  CancelOutcome,
  CreateOrder,
  OrderCountsView,
  OrderExportQuery,
  OrderId,
  OrderMatch,
  OrderPageView,
  OrderProtocolView,
  OrderQuery,
  OrderReviewView,
  OrderStatusChangeView,
  RefillsQuery,
  RefillsView,
  RetryBatchItem,
  ReviewBatch,
  SubmitBatch,
} from './work-views';
import {
  ConflictChoice,
  ConflictView,
  DuplicateProtocol,
  LocalProtocolId,
  ProtocolColumn,
  ProtocolColumns,
  ProtocolListQuery,
  ProtocolMatch,
  ProtocolPageView,
  ProtocolView,
} from './protocol-views';
import {
  CsvExportArgs,
  CsvImportArgs,
  CsvImportCommitArgs,
  CsvImportPreview,
  CsvImportResult,
} from './protocol-csv-views';
import { CoreEventSchemas, OfflineReason, OutboxCountEvent, SyncStateEvent } from './events';
import { UpdateSettings, UpdatesView } from './update-views';
import { PricingTermsView } from './pricing-views';
import { PatientId, PatientListQuery, PatientPageView, PatientView } from './patient-views';
import {
  PatientIdChoice,
  PatientIdClashView,
  SharedIdsView,
  UntangleArgs,
  UntangleResult,
} from './patient-identity-views';
import { SavePdfArgs, SavePdfResult } from './schedule-pdf';
import {
  PracticeAdvance,
  PracticeOffline,
  PracticeProduct,
  PracticeProductChange,
  PracticeProtocol,
  PracticeProtocolChange,
  PracticeServerChoice,
  PracticeState,
} from './practice-views';
import { ConnectionRemoval, StorageProblem, StoreNotice } from './store-views';
import { StartupView } from './startup-views';
import {
  ActivityFilter,
  ActivityPageView,
  ActivityPeopleView,
  ActivityQuery,
  ChainCheckView,
  DEFAULT_RETENTION_YEARS,
  RetentionYears,
  ScheduleSubjects,
  StaffList,
  StaffName,
  StaffView,
} from './activity-views';

/**
 * The IPC contract: every call the renderer may make (its name, the zod schema of its one
 * argument and of its result) and every event main pushes. Both transports (Electron IPC and the
 * browser host's WebSocket) carry exactly this, and both ends validate against it. Nothing else
 * crosses.
 */

// ---------------------------------------------------------------------------------------------
// Shapes that cross

/** A saved connection as the UI sees it: never a secret. */
export const ConnectionView = Connection.extend({
  isActive: z.boolean(),
  /** A partner connection whose client secret is not in the keychain: it must be entered again. */
  secretMissing: z.boolean().default(false),
});
export type ConnectionView = z.infer<typeof ConnectionView>;

/** What the user types on the Connect screen for a partner sandbox or production. */
export const PartnerConnectionInput = z.object({
  kind: ConnectionKind.exclude(['embedded']),
  label: z.string().trim().min(1, 'required').max(100, 'at most 100 characters'),
  baseUrl: z.string().trim().min(1, 'required'),
  authUrl: z.string().trim().min(1, 'required'),
  clientId: z.string().trim().min(1, 'required').max(200, 'at most 200 characters'),
  clientSecret: z.string().min(1, 'required').max(1000, 'at most 1000 characters'),
});
export type PartnerConnectionInput = z.infer<typeof PartnerConnectionInput>;

/** Edits a saved partner connection; without clientSecret the one in the keychain is kept. */
export const UpdateConnectionInput = PartnerConnectionInput.extend({
  id: z.string().min(1).max(64),
  clientSecret: PartnerConnectionInput.shape.clientSecret.optional(),
});
export type UpdateConnectionInput = z.input<typeof UpdateConnectionInput>;

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

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

export const ProductQuery = z.object({
  status: z.array(ProductStatusRead).max(50).optional(),
  search: z.string().max(200, 'at most 200 characters').optional(),
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
  /** 'orderable': what can be ordered first (the editor's picker); by name otherwise. */
  sort: z.enum(['name', 'orderable']).default('name'),
});
export type ProductQuery = z.input<typeof ProductQuery>;

export const ProductPage = z.object({
  products: z.array(ProductRead),
  total: z.int().min(0),
});
export type ProductPage = z.infer<typeof ProductPage>;

/** http(s) only: tracking and partner links; anything else is refused. */
export const ExternalUrl = z.url({ protocol: /^https?$/, error: 'an http or https URL' });

const None = z.object({}).strict();
const Nothing = z.null();

// ---------------------------------------------------------------------------------------------
// Errors

/** Why a call failed; 'invalid-arguments' is the contract refusing the call before any work. */
export const IpcErrorKind = z.enum([
  'invalid-arguments',
  'validation',
  'bad-request',
  'not-found',
  'conflict',
  'unauthorized',
  'rate-limited',
  'unavailable',
  'network',
  'timeout',
  'server',
  'invalid-response',
  'not-connected',
  /** This computer's disk refused the write (full, read-only), or the local database is damaged. */
  'storage',
  'keychain',
  'internal',
]);
export type IpcErrorKind = z.infer<typeof IpcErrorKind>;

export const IpcFieldError = z.object({
  /** Where, as a path into the call's argument (e.g. ["supportEmail"]). */
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
});
export type IpcFieldError = z.infer<typeof IpcFieldError>;

/** A failure as the renderer receives it: a message for people, never a secret. */
export const IpcError = z.object({
  kind: IpcErrorKind,
  message: z.string(),
  fieldErrors: z.array(IpcFieldError).default([]),
  /** A save stopped because its Patient ID already names another person (kind 'conflict'). */
  patientIdClash: PatientIdClashView.optional(),
});
export type IpcError = z.infer<typeof IpcError>;

export const IpcResult = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

// ---------------------------------------------------------------------------------------------
// Calls

const call = <A extends z.ZodType, R extends z.ZodType>(args: A, result: R) => ({ args, result });

export const IPC_CALLS = {
  /**
   * Before the data is open: what the app is doing (encrypting, or waiting because the files
   * cannot be opened with this desk's key). Every other call answers 'unavailable' until 'ready'.
   */
  'startup.state': call(None, StartupView),
  /** After the keychain was restored (or unlocked): tries to open the data again. */
  'startup.retry': call(None, StartupView),
  /**
   * The files that cannot be opened are moved aside (kept, never deleted) and the app starts
   * with empty stores (and a new key when the old one is missing).
   */
  'startup.startFresh': call(z.object({ confirm: z.literal(true) }), StartupView),

  'app.state': call(None, AppState),
  'app.setTheme': call(z.object({ theme: Theme }), Nothing),
  'app.openExternal': call(z.object({ url: ExternalUrl }), Nothing),
  'app.setNotifications': call(z.object({ enabled: z.boolean() }), Nothing),
  /** Shows these of the protocol list's columns (and hides the others) on this desk. */
  'app.setProtocolColumns': call(z.object({ columns: ProtocolColumns }), Nothing),
  /** The user has read a notice (app.state's notices): it is no longer shown. */
  'app.dismissNotice': call(z.object({ id: z.string().min(1).max(100) }), Nothing),

  'connections.list': call(None, z.array(ConnectionView)),
  /** Checks credentials without saving anything; answers the partner's name. */
  'connections.test': call(PartnerConnectionInput, z.object({ partnerName: z.string() })),
  /** Tests, saves and activates a partner connection (its own store file: nothing else changes). */
  'connections.connect': call(PartnerConnectionInput, ConnectionView),
  'connections.useEmbedded': call(None, ConnectionView),
  /** Makes a saved connection active: its store is opened, the other one's is kept as it is. */
  'connections.activate': call(z.object({ id: z.string().min(1).max(64) }), ConnectionView),
  /** Edits a saved partner connection (e.g. enters its secret again), tests it, activates it. */
  'connections.update': call(UpdateConnectionInput, ConnectionView),
  /** What removing a saved connection would delete: its store file and what it holds. */
  'connections.removal': call(z.object({ id: z.string().min(1).max(64) }), ConnectionRemoval),
  /** Removes an inactive connection: its secret and its store file are deleted. */
  'connections.remove': call(
    z.object({ id: z.string().min(1).max(64) }),
    z.object({ removed: z.boolean() }),
  ),

  /** Pull now (products, shipping methods, protocols, recent orders) and push the outbox. */
  'sync.now': call(None, Nothing),

  'catalog.products': call(ProductQuery, ProductPage),
  'catalog.product': call(z.object({ id: z.int().positive() }), ProductRead),
  'catalog.shippingMethods': call(None, z.array(ShippingMethodInfo)),
  /** The partner's pricing terms every estimate uses (read at connect and by every full sync). */
  'catalog.pricing': call(None, PricingTermsView),

  /** Local protocols, a page at a time: the list, search, sort and filters work offline. */
  'protocols.list': call(ProtocolListQuery, ProtocolPageView),
  /** How many protocols match the search and filters (every page of the list). */
  'protocols.count': call(ProtocolMatch, z.object({ total: z.int().min(0) })),
  /** Every protocol matching the search and filters ("select all matching"). */
  'protocols.matchingIds': call(ProtocolMatch, z.object({ localIds: z.array(z.string()) })),
  'protocols.get': call(LocalProtocolId, ProtocolView),
  /** Drafts a protocol locally; it is sent to the server when it can be. */
  /**
   * A Patient ID that already names another person stops these three with a 'conflict' carrying
   * patientIdClash; the same call with `patientId` (the user's answer) goes through.
   */
  'protocols.create': call(
    z.object({ draft: ProtocolInput, patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  'protocols.update': call(
    LocalProtocolId.extend({ draft: ProtocolInput, patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  /** A new local protocol with the same order for another patient. */
  'protocols.duplicate': call(
    DuplicateProtocol.extend({ patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  /** 'dropped': it never reached the server; 'queued': the delete waits to be sent. */
  'protocols.delete': call(
    LocalProtocolId,
    z.object({ effect: z.enum(['queued', 'dropped', 'deferred']) }),
  ),
  'protocols.conflicts': call(None, z.array(ConflictView)),
  'protocols.resolveConflict': call(
    LocalProtocolId.extend({ choice: ConflictChoice }),
    z.object({ localId: z.string().nullable(), copyLocalId: z.string().nullable() }),
  ),
  /** What importing this CSV text would do, writing nothing: the rows ready and those with problems. */
  'protocols.importPreview': call(CsvImportArgs, CsvImportPreview),
  /** Imports the good rows of the same text as local drafts, all in one transaction. */
  'protocols.importCommit': call(CsvImportCommitArgs, CsvImportResult),
  /** The protocols the list shows (search, filters, sort) as CSV text in the import's columns. */
  'protocols.exportCsv': call(CsvExportArgs, CsvFile),
  /** The import's columns with example rows from the synced catalog. */
  'protocols.csvTemplate': call(None, CsvFile),

  /** What a batch of these protocols would be: estimates, warnings, and those left out and why. */
  'batches.review': call(ReviewBatch, BatchReviewView),
  /** Freezes one order per protocol and starts sending them; refused whole when one cannot be. */
  'batches.submit': call(SubmitBatch, z.object({ batchId: z.string() })),
  'batches.list': call(None, z.array(BatchView)),
  'batches.items': call(BatchId, z.array(BatchItemView)),
  'batches.pause': call(BatchId, BatchView),
  'batches.continue': call(BatchId, BatchView),
  /** Sends a rejected item again, frozen anew from its protocol's current draft. */
  'batches.retryItem': call(RetryBatchItem, BatchView),

  /** Protocols whose patient's last known order runs out within the days given. */
  'refills.due': call(RefillsQuery, RefillsView),

  /** Patients (the customers' sourceIds of protocols and orders), a page at a time, searched. */
  'patients.list': call(PatientListQuery, PatientPageView),
  /** One patient: protocols, every order with its status, tracking and protocol, the supply. */
  'patients.get': call(PatientId, PatientView),
  /** The Patient IDs that name more than one person, each with its people and their protocols. */
  'patients.sharedIds': call(None, SharedIdsView),
  /** Untangles one shared ID: the same person everywhere, or a person's protocols to a new ID. */
  'patients.untangle': call(UntangleArgs, UntangleResult),

  /** Orders of the local mirror, newest first. */
  'orders.list': call(OrderQuery, OrderPageView),
  'orders.counts': call(OrderMatch, OrderCountsView),
  /** Every order the queue's filters and search match (no paging), as CSV, newest first. */
  'orders.exportCsv': call(OrderExportQuery, CsvFile),
  'orders.get': call(OrderId, AppOrder),
  /** The protocol the order was made from on this desk, if it was. */
  'orders.protocol': call(OrderId, OrderProtocolView),
  /** The statuses this app saw the order take, oldest first. */
  'orders.timeline': call(OrderId, z.array(OrderStatusChangeView)),
  /** What orders.create of the same argument would send, for its confirmation; sends nothing. */
  'orders.review': call(CreateOrder, OrderReviewView),
  /** One order, sent exactly once as a batch of one; follow it with batches.items. */
  'orders.create': call(CreateOrder, z.object({ batchId: z.string() })),
  /** Reads the order from the server now (the poller would later). */
  'orders.refresh': call(OrderId, AppOrder),
  'orders.cancel': call(OrderId, CancelOutcome),

  'settings.get': call(None, PartnerSettings),
  'settings.update': call(PartnerSettingsPatch, PartnerSettings),
  /** The secret is sent only when asked for, one call at a time; null while no webhookUrl is set. */
  'settings.revealWebhookSecret': call(None, z.object({ secret: z.string().nullable() })),
  'settings.rotateWebhookSecret': call(
    z.object({ confirm: z.literal(true) }),
    z.object({ secret: z.string() }),
  ),

  /**
   * The page as it prints (a dosing schedule), saved as a PDF where the user chooses in the save
   * dialog. The desktop app only: the browser host answers 'unavailable' (the browser's own print
   * dialog saves a PDF there).
   */
  'schedule.savePdf': call(SavePdfArgs, SavePdfResult),
  /**
   * The window opened the print dialog for a schedule (only the window knows): recorded in the
   * activity record, nothing else.
   */
  'schedule.printed': call(z.object({ subjects: ScheduleSubjects }), Nothing),

  /** The activity record (audit trail) of the active connection, newest first, filtered. */
  'activity.list': call(ActivityQuery, ActivityPageView),
  /** The staff names and OS accounts the record names (the person filter). */
  'activity.people': call(None, ActivityPeopleView),
  /** Walks the record's hash chain: intact, or the first entry where it breaks and why. */
  'activity.check': call(None, ChainCheckView),
  /** Every entry the filters match as CSV; the export is itself recorded. */
  'activity.exportCsv': call(ActivityFilter, CsvFile),
  /** How many years the record is kept (the purge runs at open and daily). */
  'activity.setRetention': call(z.object({ years: RetentionYears }), Nothing),

  /** The short list of people who share this desk, and who is at it (kept in app.db). */
  'staff.add': call(z.object({ name: StaffName }), StaffView),
  'staff.rename': call(z.object({ from: z.string().min(1).max(60), to: StaffName }), StaffView),
  'staff.remove': call(z.object({ name: z.string().min(1).max(60) }), StaffView),
  /** Who is at the desk now (null: nobody picked); every activity entry names them. */
  'staff.choose': call(z.object({ name: z.string().min(1).max(60).nullable() }), StaffView),

  /**
   * Practice mode: the built-in sandbox's controls in the app. Every call but practice.state is
   * refused unless the active connection is the built-in sandbox (and, for the controls, practice
   * mode is on); nothing here reaches a partner or production server.
   */
  'practice.state': call(None, PracticeState),
  'practice.setEnabled': call(z.object({ enabled: z.boolean() }), PracticeState),
  /** Moves an order of the built-in sandbox up to a status (SHIPPED and on: with tracking). */
  'practice.advanceOrder': call(PracticeAdvance, AppOrder),
  /** The built-in sandbox as if gone (offline) or back. */
  'practice.setOffline': call(PracticeOffline, PracticeState),
  /** The built-in sandbox answers normally, slowly (3 s late) or failing (503 to every request). */
  'practice.setServer': call(PracticeServerChoice, PracticeState),
  /**
   * Changes a protocol on the built-in sandbox as another desk would (its shipping method), even
   * while it is offline for this app: edited here too, it becomes a conflict.
   */
  'practice.changeProtocol': call(PracticeProtocol, PracticeProtocolChange),
  /** The partner discontinues, backorders or restocks a product; the catalog follows at once when online. */
  'practice.setProductStatus': call(PracticeProduct, PracticeProductChange),

  /** The app's own updates: settings (off by default) and what the updater is doing. */
  'updates.get': call(None, UpdatesView),
  /** Saves the settings; turning updates on (or a new feed URL) checks at once. */
  'updates.configure': call(UpdateSettings, UpdatesView),
  /** Checks now; the outcome follows as update-status events. Refused without an updater or while off. */
  'updates.check': call(None, UpdatesView),
  /** "Restart to update": refused unless an update is ready and no batch is running. */
  'updates.install': call(None, Nothing),
} as const;

export type IpcChannel = keyof typeof IPC_CALLS;
export type IpcArgs<C extends IpcChannel> = z.input<(typeof IPC_CALLS)[C]['args']>;
export type IpcParsedArgs<C extends IpcChannel> = z.output<(typeof IPC_CALLS)[C]['args']>;
export type IpcValue<C extends IpcChannel> = z.output<(typeof IPC_CALLS)[C]['result']>;

export const IPC_CHANNELS = Object.keys(IPC_CALLS) as IpcChannel[];
export const isIpcChannel = (name: unknown): name is IpcChannel =>
  typeof name === 'string' && Object.hasOwn(IPC_CALLS, name);

// ---------------------------------------------------------------------------------------------
// Events (main -> renderer)

export const IPC_EVENTS = {
  ...CoreEventSchemas,
  /** The startup's phase changed (encrypting progress, locked, ready). */
  startup: StartupView,
  /** The active connection changed (connected, switched, or the embedded sandbox restarted). */
  'connection-changed': z.object({ connection: ConnectionView.nullable() }),
  /**
   * The browser host's page lost (up: false) or regained its connection to the host: said by the
   * page's bridge itself, never sent by main (Electron's IPC does not drop).
   */
  'host-link': z.object({ up: z.boolean() }),
} as const;

export type IpcEventName = keyof typeof IPC_EVENTS;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof IPC_EVENTS)[E]>;
export const IPC_EVENT_NAMES = Object.keys(IPC_EVENTS) as IpcEventName[];
export const isIpcEventName = (name: unknown): name is IpcEventName =>
  typeof name === 'string' && Object.hasOwn(IPC_EVENTS, name);

// ---------------------------------------------------------------------------------------------
// The object the renderer sees as window.orderDesk

/** Every call as a method; it never throws for a refused or failed call, it answers an IpcResult. */
export type OrderDeskCalls = {
  [C in IpcChannel]: (args: IpcArgs<C>) => Promise<IpcResult<IpcValue<C>>>;
};

export interface OrderDeskApi {
  call<C extends IpcChannel>(channel: C, args: IpcArgs<C>): Promise<IpcResult<IpcValue<C>>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
}

/** Names of the two wire messages both transports use. */
export const IPC_INVOKE = 'order-desk:invoke';
export const IPC_EVENT = 'order-desk:event';

// ---------------------------------------------------------------------------------------------
// The browser host's wire (one WebSocket carrying the same contract; see src/main/browser-host)

export const BROWSER_HOST_PATHS = {
  /** The WebSocket; it requires `?token=` (the per-launch token) and the host's own Origin. */
  socket: '/__order-desk/ws',
  /** The bridge script injected into index.html before the renderer's module script. */
  bridge: '/__order-desk/bridge.js',
  /** GET ?token=: 204 when the token is this launch's, 401 when not (a tab of an earlier launch). */
  tokenCheck: '/__order-desk/token-check',
} as const;

/** Browser -> host: one call. `id` pairs the answer with the call. */
export const WireCall = z.object({
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER),
  channel: z.string().max(200),
  args: z.unknown(),
});
export type WireCall = z.infer<typeof WireCall>;

/** Host -> browser: the answer to a call (id null when the call itself was unreadable). */
export const WireAnswer = z.object({
  id: z.int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  result: IpcResult(z.unknown()),
});
/** Host -> browser: a pushed event (its payload is checked against IPC_EVENTS on arrival). */
export const WireEvent = z.object({ event: z.string(), payload: z.unknown() });
export const WireHostMessage = z.union([WireAnswer, WireEvent]);
export type WireHostMessage = z.infer<typeof WireHostMessage>;
