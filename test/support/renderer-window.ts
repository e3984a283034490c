import type { OrderDeskApi } from '@shared/ipc';

/**
 * The renderer's global as src/renderer/src/env.d.ts declares it, for renderer stores tested in
 * Node: window.orderDesk, and the page events a store may listen to.
 */
declare global {
  var window: {
    orderDesk: OrderDeskApi;
    addEventListener(type: string, listener: () => void): void;
    removeEventListener(type: string, listener: () => void): void;
  };
}

/** A window whose only working part is `orderDesk`. */
export const rendererWindow = (orderDesk: OrderDeskApi): typeof globalThis.window => ({
  orderDesk,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
});
