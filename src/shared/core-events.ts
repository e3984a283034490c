import { z } from 'zod';
import { AppOrder, OrderStatusRead } from './api';
import { UpdatesView } from './update-views';
import { StorageProblem, StoreNotice } from './store-views';

/**
 * Events the main process pushes (to the UI over IPC, and to desktop notifications). Declared
 * here, in the shared domain, so that the IPC contract and main use one definition.
 */
/**
 * Why nothing is sent to the server: 'network' (no answer), 'not-api' (the network is not
 * reaching the server: something else answers, such as a Wi-Fi sign-in page), 'credentials-
 * rejected' (the connection's secret or its tokens were refused: nothing is sent until the user
 * enters the new secret), 'credentials-missing' (the keychain does not give the connection's
 * secret: nothing is sent until it does again, or the user enters it).
 */
export const OfflineReason = z.enum([
  'network',
  'not-api',
  'credentials-rejected',
  'credentials-missing',
]);
export type OfflineReason = z.infer<typeof OfflineReason>;

export const ConnectivityEvent = z.object({
  /** True when requests are sent: the server answers and the credentials are accepted. */
  online: z.boolean(),
  /** When the state last changed (ISO 8601). */
  since: z.string(),
  /** Why it is not online; null while online. */
  reason: OfflineReason.nullable(),
});

/** The most unreadable items a sync-state event describes (a summary counts the rest). */
export const SKIPPED_SHOWN_MAX = 20;

export const SyncPhase = z.enum(['idle', 'pulling', 'pushing', 'offline', 'error']);

export const SyncStateEvent = z.object({
  phase: SyncPhase,
  lastSyncedAt: z.string().nullable(),
  /** A message for the user when phase is 'error' or 'offline'. */
  error: z.string().nullable(),
  /**
   * Items the server sent in the last run that could not be read: left out, the rest applied
   * (each described, e.g. "order ord_1 could not be read (status: …)"); empty when none.
   */
  skipped: z.array(z.string()).max(SKIPPED_SHOWN_MAX),
});

export const OutboxCountEvent = z.object({
  /** Local changes not yet acknowledged by the server. */
  pending: z.int().min(0),
  /** Changes whose outcome is being reconciled with the server. */
  inDoubt: z.int().min(0),
  /** Protocols waiting for the user to resolve a conflict. */
  conflicts: z.int().min(0),
});

export const BatchProgressEvent = z.object({
  batchId: z.string(),
  state: z.enum(['running', 'paused', 'done']),
  total: z.int().min(0),
  queued: z.int().min(0),
  sending: z.int().min(0),
  inDoubt: z.int().min(0),
  created: z.int().min(0),
  /** Refused, or held back (counted in `held` too). */
  rejected: z.int().min(0),
  /** Held back unsent: the patient already has an order of the same content (a duplicate?). */
  held: z.int().min(0),
  /** Orders found after the batch that may repeat one of its items, for a person to look at. */
  possibleDuplicates: z.int().min(0),
  /** This desk's orders it cancelled by itself: another desk ordered the same at the same moment. */
  repeatsCancelled: z.int().min(0),
});

export const OrderStatusEvent = z.object({
  orderId: z.string(),
  /** As the server sent it: a status the app does not know is kept and shown as it came. */
  previous: OrderStatusRead.nullable(),
  status: OrderStatusRead,
  order: AppOrder,
  /** Cancelled by the app as a repeat of this other desk's order (the batch tells of it). */
  repeatOf: z.string().optional(),
});

/**
 * What the screens read, as main tells of its changes: after each commit of the stores (and each
 * change of the connection's state, 'status') a `changed` event names the subjects written, and
 * every live query reading one of them reads again.
 */
export const ChangeSubject = z.enum([
  'protocols',
  'orders',
  'batches',
  'jobs',
  'catalog',
  'settings',
  'connection',
  /** Online or not and why, the sync's phase, what waits to be sent, notices, the disk. */
  'status',
  /** The activity record: an entry was added, or the retention purge removed some. */
  'activity',
  /**
   * The undo history: a step noted, undone or redone (a step of the list's filters writes no
   * protocol, so the protocol list is not read again for it).
   */
  'undo',
]);
export type ChangeSubject = z.infer<typeof ChangeSubject>;

/** The events main sends to the window (IPC_EVENTS adds the startup's and the connection's). */
export const WindowEventSchemas = {
  /** The subjects the last writes changed: the screens reading them read again. */
  changed: z.object({ subjects: z.array(ChangeSubject).min(1) }),
  'outbox-count': OutboxCountEvent,
  'batch-progress': BatchProgressEvent,
  'order-status': OrderStatusEvent,
  /** The app's own updates: settings, phase, download progress, whether a batch holds them. */
  'update-status': UpdatesView,
} as const;

/**
 * The events main's parts tell each other and never send to the window: each is a `status`
 * change there, which the window reads with app.state.
 */
export const CoreEventSchemas = {
  ...WindowEventSchemas,
  connectivity: ConnectivityEvent,
  'sync-state': SyncStateEvent,
  /** The notices shown (a damaged store recovered), after one was added or dismissed. */
  'store-notices': z.object({ notices: z.array(StoreNotice) }),
  /** The disk under the data folder refused a write, or takes writes again (problem null). */
  storage: z.object({ problem: StorageProblem }),
} as const;

export type CoreEventName = keyof typeof CoreEventSchemas;
export type CoreEvents = {
  [K in CoreEventName]: z.infer<(typeof CoreEventSchemas)[K]>;
};
