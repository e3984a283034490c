/// <reference types="vite/client" />
import type { OrderDeskApi } from '@shared/ipc';

declare global {
  interface Window {
    /** The one object the preload (Electron) or the browser host's script exposes. */
    orderDesk: OrderDeskApi;
  }
}

export {};
