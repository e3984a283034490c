import type { OrderDeskApi } from '../shared/ipc';

/** `window.orderDesk`, as the preload (Electron) and the browser host's client expose it. */
declare global {
  interface Window {
    orderDesk: OrderDeskApi;
  }
}
export {};
