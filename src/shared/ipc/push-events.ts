import { z } from 'zod';
import { WindowEventSchemas } from '../core-events';
import { StartupView } from '../startup-views';
import { ConnectionView } from './connections';

/** The events main pushes to the window (main -> renderer). */
export const IPC_EVENTS = {
  ...WindowEventSchemas,
  /** The startup's phase changed (encrypting progress, locked, ready). */
  startup: StartupView,
  /** The active connection changed (connected, switched, or the embedded sandbox restarted). */
  'connection-changed': z.object({ connection: ConnectionView.nullable() }),
  /**
   * The browser host's page lost (up: false) or regained its connection to the host: said by the
   * page's bridge itself, never sent by main (Electron's IPC does not drop).
   */
  'host-link': z.object({ up: z.boolean() }),
} as const;

export type IpcEventName = keyof typeof IPC_EVENTS;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof IPC_EVENTS)[E]>;
export const IPC_EVENT_NAMES = Object.keys(IPC_EVENTS) as IpcEventName[];
export const isIpcEventName = (name: unknown): name is IpcEventName =>
  typeof name === 'string' && Object.hasOwn(IPC_EVENTS, name);
