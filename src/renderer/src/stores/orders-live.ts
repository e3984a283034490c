import type { AppOrder } from '../../../shared/api';
import type { IpcEventPayload } from '../../../shared/ipc';
import { useOrderDetailStore } from './order-detail-store';
import { useOrdersStore } from './orders-store';

/** How long order-status events gather before the screens take them in (one update per burst). */
const FLUSH_MS = 250;

const pending = new Map<string, AppOrder>();
let timer: ReturnType<typeof setTimeout> | null = null;

function flush(): void {
  timer = null;
  const orders = [...pending.values()];
  pending.clear();
  useOrdersStore.getState().applyLive(orders);
  useOrderDetailStore.getState().applyLive(orders);
}

/**
 * An order-status event: the poller can report many orders a second, so the latest copy of each
 * order is kept and the queue and the open detail take them in together, a few times a second.
 */
export function noteOrderStatus(event: IpcEventPayload<'order-status'>): void {
  pending.set(event.orderId, event.order);
  timer ??= setTimeout(flush, FLUSH_MS);
}

/** The order mirror may have changed (a sync or a batch): the queue is read again, coalesced. */
export function noteOrdersMaybeChanged(): void {
  useOrdersStore.getState().requery();
}

/** A switch of connection: nothing of the old one is shown. */
export function resetOrders(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  pending.clear();
  useOrdersStore.getState().reset();
  useOrderDetailStore.getState().reset();
}
