import type { OrderDeskBridge } from './index';

declare global {
  interface Window {
    orderDesk: OrderDeskBridge;
  }
}
export {};
