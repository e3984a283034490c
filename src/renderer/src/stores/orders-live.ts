import type { AppOrder } from '../../../shared/api';
import type { IpcEventPayload } from '../../../shared/ipc';
import { createCoalescer } from '../lib/coalesce';
import { useOrderDetailStore } from './order-detail-store';
import { useOrdersStore } from './orders-store';

/** Order-status events are taken in at most this often (one update per burst). */
const FLUSH_MS = 250;

const pending = new Map<string, AppOrder>();

function flush(): void {
  if (pending.size === 0) return;
  const orders = [...pending.values()];
  pending.clear();
  useOrdersStore.getState().applyLive(orders);
  useOrderDetailStore.getState().applyLive(orders);
}
const flusher = createCoalescer(flush, { intervalMs: FLUSH_MS });

/**
 * An order-status event: the poller can report many orders a second, so the latest copy of each
 * order is kept and the queue and the open detail take them in together, a few times a second.
 */
export function noteOrderStatus(event: IpcEventPayload<'order-status'>): void {
  pending.set(event.orderId, event.order);
  flusher.request();
}

/** The order mirror may have changed (a sync or a batch): the queue is read again, coalesced. */
export function noteOrdersMaybeChanged(): void {
  useOrdersStore.getState().requery();
}

/** A switch of connection: nothing of the old one is shown. */
export function resetOrders(): void {
  flusher.cancel();
  pending.clear();
  useOrdersStore.getState().reset();
  useOrderDetailStore.getState().reset();
}
