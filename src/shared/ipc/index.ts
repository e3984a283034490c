import type { z } from 'zod';
import type { ChangeSubject } from '../core-events';
import { activityChannels } from './activity';
import { appChannels } from './app';
import { batchesChannels } from './batches';
import { catalogChannels } from './catalog';
import { connectionsChannels } from './connections';
import { dashboardChannels } from './dashboard';
import type { IpcResult } from './errors';
import { ordersChannels } from './orders';
import { paletteChannels } from './palette';
import { patientsChannels } from './patients';
import { practiceChannels } from './practice';
import { protocolsChannels } from './protocols';
import type { IpcEventName, IpcEventPayload } from './push-events';
import { refillsChannels } from './refills';
import { scheduleChannels } from './schedule';
import { settingsChannels } from './settings';
import { staffChannels } from './staff';
import { startupChannels } from './startup';
import { syncChannels } from './sync';
import { undoChannels } from './undo';
import { updatesChannels } from './updates';

/**
 * The IPC contract: every call the renderer may make (its name, the zod schema of its one
 * argument and of its result) and every event main pushes. Both transports (Electron IPC and the
 * browser host's WebSocket) carry exactly this, and both ends validate against it. Nothing else
 * crosses. One module per area, as main's handlers (main/ipc/handlers); each declares only
 * channels named after its area, so no two can declare the same one.
 */
export const IPC_CALLS = {
  ...startupChannels,
  ...appChannels,
  ...connectionsChannels,
  ...syncChannels,
  ...catalogChannels,
  ...protocolsChannels,
  ...batchesChannels,
  ...refillsChannels,
  ...dashboardChannels,
  ...patientsChannels,
  ...paletteChannels,
  ...ordersChannels,
  ...settingsChannels,
  ...scheduleChannels,
  ...activityChannels,
  ...staffChannels,
  ...practiceChannels,
  ...updatesChannels,
  ...undoChannels,
} as const;

export type IpcChannel = keyof typeof IPC_CALLS;
export type IpcArgs<C extends IpcChannel> = z.input<(typeof IPC_CALLS)[C]['args']>;
export type IpcParsedArgs<C extends IpcChannel> = z.output<(typeof IPC_CALLS)[C]['args']>;
export type IpcValue<C extends IpcChannel> = z.output<(typeof IPC_CALLS)[C]['result']>;

export const IPC_CHANNELS = Object.keys(IPC_CALLS) as IpcChannel[];
export const isIpcChannel = (name: unknown): name is IpcChannel =>
  typeof name === 'string' && Object.hasOwn(IPC_CALLS, name);

/** The channels declared with `read`: those a live query reads, each with its subjects. */
export type ReadChannel = {
  [C in IpcChannel]: (typeof IPC_CALLS)[C]['subjects'] extends null ? never : C;
}[IpcChannel];
export const isReadChannel = (channel: IpcChannel): channel is ReadChannel =>
  IPC_CALLS[channel].subjects !== null;
export const READ_CHANNELS: readonly ReadChannel[] = IPC_CHANNELS.filter(isReadChannel);
/** What a read's answer depends on: a change of one of these subjects may change it. */
export const subjectsOfRead = (channel: ReadChannel): readonly ChangeSubject[] =>
  IPC_CALLS[channel].subjects;

// The object the renderer sees as window.orderDesk

/** Every call as a method; it never throws for a refused or failed call, it answers an IpcResult. */
export type OrderDeskCalls = {
  [C in IpcChannel]: (args: IpcArgs<C>) => Promise<IpcResult<IpcValue<C>>>;
};

export interface OrderDeskApi {
  call<C extends IpcChannel>(channel: C, args: IpcArgs<C>): Promise<IpcResult<IpcValue<C>>>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<E extends IpcEventName>(event: E, listener: (payload: IpcEventPayload<E>) => void): () => void;
}

// The shapes that cross, the errors, the events and the wire, by the names they always had.
export { AppState, ExternalUrl, Theme } from './app';
export { ProductPage, ProductQuery } from './catalog';
export { ConnectionView, PartnerConnectionInput, UpdateConnectionInput } from './connections';
export { IpcError, IpcErrorKind, IpcFieldError, IpcResult } from './errors';
export {
  IPC_EVENTS,
  IPC_EVENT_NAMES,
  isIpcEventName,
  type IpcEventName,
  type IpcEventPayload,
} from './push-events';
export {
  BROWSER_HOST_PATHS,
  IPC_EVENT,
  IPC_INVOKE,
  WireAnswer,
  WireCall,
  WireEvent,
  WireHostMessage,
} from './wire';
