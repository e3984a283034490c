import { z } from 'zod';
import { AppOrder, OrderStatus } from './api';
import { UpdatesView } from './update-views';
import { StorageProblem, StoreNotice } from './store-views';

/**
 * Events the main process pushes (to the UI over IPC, and to desktop notifications). Declared
 * here, in the shared domain, so that the IPC contract and main use one definition.
 */
export const ConnectivityEvent = z.object({
  online: z.boolean(),
  /** When the state last changed (ISO 8601). */
  since: z.string(),
});

export const SyncPhase = z.enum(['idle', 'pulling', 'pushing', 'offline', 'error']);

export const SyncStateEvent = z.object({
  phase: SyncPhase,
  lastSyncedAt: z.string().nullable(),
  /** A message for the user when phase is 'error'. */
  error: z.string().nullable(),
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
  rejected: z.int().min(0),
});

export const OrderStatusEvent = z.object({
  orderId: z.string(),
  previous: OrderStatus.nullable(),
  status: OrderStatus,
  order: AppOrder,
});

export const CoreEventSchemas = {
  connectivity: ConnectivityEvent,
  'sync-state': SyncStateEvent,
  'outbox-count': OutboxCountEvent,
  'batch-progress': BatchProgressEvent,
  'order-status': OrderStatusEvent,
  /** The app's own updates: settings, phase, download progress, whether a batch holds them. */
  'update-status': UpdatesView,
  /** The notices shown (a damaged store recovered), after one was added or dismissed. */
  'store-notices': z.object({ notices: z.array(StoreNotice) }),
  /** The disk under the data folder refused a write, or takes writes again (problem null). */
  storage: z.object({ problem: StorageProblem }),
} as const;

export type CoreEventName = keyof typeof CoreEventSchemas;
export type CoreEvents = { [K in CoreEventName]: z.infer<(typeof CoreEventSchemas)[K]> };
