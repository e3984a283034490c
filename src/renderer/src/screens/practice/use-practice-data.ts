import type { IpcArgs } from '@shared/ipc';
import { call } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The practice screen's reads (what its cards offer) and its practice.* commands. */

export function usePracticeProtocols() {
  const protocols = useLiveQuery(
    (read) => read('protocols.list', { sort: 'name', limit: 200 }),
    [],
  );
  return protocols;
}

export function usePracticeOrders() {
  const orders = useLiveQuery((read) => read('orders.list', { limit: 100 }), []);
  return orders;
}

export function usePracticeProducts() {
  const products = useLiveQuery(
    (read) => read('catalog.products', { sort: 'name', limit: 500 }),
    [],
  );
  return products;
}

/** Another desk changes a protocol on the server. */
export function changeProtocolElsewhere(protocolId: string) {
  return call('practice.changeProtocol', { protocolId });
}

export function advanceOrder(orderId: string, to: IpcArgs<'practice.advanceOrder'>['to']) {
  return call('practice.advanceOrder', { orderId, to });
}

export function setProductStatus(
  productId: number,
  status: IpcArgs<'practice.setProductStatus'>['status'],
) {
  return call('practice.setProductStatus', { productId, status });
}

export function setFulfillment(change: IpcArgs<'practice.setFulfillment'>) {
  return call('practice.setFulfillment', change);
}

export function stepOrders() {
  return call('practice.stepOrders', {});
}

export function setServer(server: IpcArgs<'practice.setServer'>['server']) {
  return call('practice.setServer', { server });
}

export function setOffline(offline: boolean) {
  return call('practice.setOffline', { offline });
}
