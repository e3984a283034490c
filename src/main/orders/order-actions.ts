import type { AppOrder } from '@shared/api';
import type { ActivityLog } from '../activity/activity-log';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import type { CoreEventBus } from '../core-event-bus';
import { protocolOfOrder } from './order-job';
import type { OrderStore } from './order-store';
import { orderStatusEvent } from './orders-repo';

export type CancelOutcome =
  | { ok: true; order: AppOrder }
  | {
      ok: false;
      reason: 'already-cancelled' | 'not-cancellable' | 'not-found';
      /** For the UI, as is. */
      message: string;
      /** The order as the server has it now (stored), when it could be read. */
      order: AppOrder | null;
    };

export const CANCEL_MESSAGES = {
  'already-cancelled': 'This order is already cancelled.',
  'not-cancellable': 'This order is already being processed and can no longer be cancelled.',
  'not-found': 'This order does not exist on the server.',
} as const;

export interface OrderActionsDeps {
  store: OrderStore;
  client: Pick<ApiClient, 'cancelOrder' | 'getOrder'>;
  bus: CoreEventBus;
  /** Records a cancel that went through, with the cancelled order's write. */
  activity: Pick<ActivityLog, 'record'>;
  log?: (line: string) => void;
}

export interface OrderActions {
  /**
   * Cancels an order in NEW. A 409 (any other state) is not an error but an outcome with a clear
   * message; the order is then read so that the store shows the state that prevented it. Other
   * failures (offline, timeout) throw the client's ApiClientError.
   */
  cancelOrder(orderId: string, options?: { repeatOf?: string }): Promise<CancelOutcome>;
  /** Reads the order from the server now and stores it (an order-status event when it moved). */
  refreshOrder(orderId: string): Promise<AppOrder>;
}

export function createOrderActions(deps: OrderActionsDeps): OrderActions {
  const log = deps.log ?? (() => undefined);

  /** Stores the order and emits order-status when its status is new to the store. */
  const record = (order: AppOrder, repeatOf?: string): AppOrder => {
    const result = deps.store.orders.upsert(order, { source: 'pulled' });
    // New to the store counts too (statusChanged does not).
    if (result.previous?.status !== result.order.status)
      deps.bus.emit('order-status', {
        ...orderStatusEvent(result),
        ...(repeatOf ? { repeatOf } : {}),
      });
    return result.order;
  };

  return {
    async refreshOrder(orderId) {
      return record(await deps.client.getOrder(orderId));
    },

    async cancelOrder(orderId, options = {}) {
      try {
        const cancelled = await deps.client.cancelOrder(orderId);
        const order = deps.store.transaction(() => {
          const repeatOf = options.repeatOf;
          const stored = record(cancelled, repeatOf);
          const protocol = protocolOfOrder(deps.store.db, orderId);
          deps.activity.record({
            action: 'order-cancelled',
            subjects: {
              orders: repeatOf ? [orderId, repeatOf] : [orderId],
              patients: [stored.customer.sourceId],
              protocols: protocol ? [protocol] : [],
            },
            // The app's own cancel of a repeat another desk made at the same moment.
            ...(repeatOf
              ? { byApp: true, detail: { reason: 'repeat-of-another-desk' as const } }
              : {}),
          });
          return stored;
        });
        return { ok: true, order };
      } catch (error) {
        if (isApiClientError(error, 'not-found')) {
          return {
            ok: false,
            reason: 'not-found',
            message: CANCEL_MESSAGES['not-found'],
            order: null,
          };
        }
        if (!isApiClientError(error, 'conflict')) throw error;
        let order: AppOrder | null = null;
        try {
          order = record(await deps.client.getOrder(orderId));
        } catch (readError) {
          log(`order ${orderId}: could not be read after a refused cancel: ${String(readError)}`);
        }
        const cancelled =
          order !== null
            ? order.status === 'CANCELLED'
            : /already cancelled/i.test(error.detail ?? '');
        const reason = cancelled ? 'already-cancelled' : 'not-cancellable';
        return { ok: false, reason, message: CANCEL_MESSAGES[reason], order };
      }
    },
  };
}
