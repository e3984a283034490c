import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT, IPC_INVOKE, type OrderDeskApi } from '../shared/ipc';
import { createOrderDeskApi } from '../shared/ipc-bridge';

/**
 * The preload's whole job: build `window.orderDesk` from the contract on an ipcRenderer transport
 * and expose that one object. No ipcRenderer, no Node, nothing else reaches the page.
 */
const api = createOrderDeskApi({
  invoke: (channel, args) => ipcRenderer.invoke(IPC_INVOKE, channel, args),
  subscribe: (listener) => {
    const onEvent = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (typeof name === 'string') listener(name, payload);
    };
    ipcRenderer.on(IPC_EVENT, onEvent);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, onEvent);
    };
  },
});

const orderDesk: OrderDeskApi = { call: api.call, on: api.on };

contextBridge.exposeInMainWorld('orderDesk', orderDesk);

/** The type of `window.orderDesk` (declared for the renderer in ./bridge.d.ts). */
export type OrderDeskBridge = OrderDeskApi;
