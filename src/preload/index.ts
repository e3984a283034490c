import { contextBridge, ipcRenderer } from 'electron';

/** The one object the renderer sees. The full typed contract arrives with src/shared/ipc.ts. */
const orderDesk = {
  info: (): Promise<{ version: string; sandboxBaseUrl: string | null }> =>
    ipcRenderer.invoke('app:info'),
};

contextBridge.exposeInMainWorld('orderDesk', orderDesk);

export type OrderDeskBridge = typeof orderDesk;
