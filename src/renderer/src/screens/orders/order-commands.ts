import { call } from '@renderer/lib/ipc';
import { queueQuery, useOrdersStore } from '@renderer/stores/orders-store';

/** The orders screen's exports: main writes the CSV, the screen hands it to the user. */

/** The orders selected. */
export function exportSelectedOrders(selected: ReadonlySet<string>) {
  return call('orders.exportCsv', { orderIds: [...selected] });
}

/** Every order of the queue as filtered (not only those loaded). */
export function exportQueue() {
  return call('orders.exportCsv', queueQuery(useOrdersStore.getState()));
}
