import { IPC_CHANNELS, type IpcChannel } from '@shared/ipc';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { batchesHandlers } from './batches';
import { catalogHandlers } from './catalog';
import { connectionsHandlers } from './connections';
import type { AreaChannel, AreaHandlers, IpcHandler, IpcHandlerDeps } from './context';
import { ordersHandlers } from './orders';
import { patientsHandlers } from './patients';
import { practiceHandlers } from './practice';
import { protocolsHandlers } from './protocols';
import { refillsHandlers } from './refills';
import { scheduleHandlers } from './schedule';
import { settingsHandlers } from './settings';
import { staffHandlers } from './staff';
import { syncHandlers } from './sync';
import { updatesHandlers } from './updates';

export type { IpcHandler, IpcHandlerDeps } from './context';

/** One handler per channel: takes the parsed argument, answers the contract's value or throws. */
export type IpcHandlers = { [C in IpcChannel]: IpcHandler<C> };

/** The areas of the contract: the prefixes of its channel names. */
type Area =
  | 'app'
  | 'connections'
  | 'sync'
  | 'catalog'
  | 'protocols'
  | 'batches'
  | 'orders'
  | 'refills'
  | 'patients'
  | 'settings'
  | 'schedule'
  | 'updates'
  | 'practice'
  | 'activity'
  | 'staff';

/**
 * The handlers, one module per area. Each module answers for exactly its area's channels
 * (AreaHandlers: none missing, none extra), and the areas' prefixes do not overlap, so no
 * channel can have two handlers.
 */
export const HANDLER_AREAS = {
  app: appHandlers,
  connections: connectionsHandlers,
  sync: syncHandlers,
  catalog: catalogHandlers,
  protocols: protocolsHandlers,
  batches: batchesHandlers,
  orders: ordersHandlers,
  refills: refillsHandlers,
  patients: patientsHandlers,
  settings: settingsHandlers,
  schedule: scheduleHandlers,
  updates: updatesHandlers,
  practice: practiceHandlers,
  activity: activityHandlers,
  staff: staffHandlers,
} satisfies { [A in Area]: (deps: IpcHandlerDeps) => AreaHandlers<A> };

/**
 * A channel of the contract outside every area has no handler: adding one under a new prefix
 * fails to compile here until its area is listed above.
 */
type Unhandled = Exclude<IpcChannel, AreaChannel<Area>>;
const everyChannelHandled: [Unhandled] extends [never] ? true : Unhandled = true;
void everyChannelHandled;

/**
 * Every channel's handler, the areas combined. Also checked when it runs (and in
 * test/unit/ipc-handlers.test.ts): each channel of the contract answered by exactly one area.
 */
export function createIpcHandlers(deps: IpcHandlerDeps): IpcHandlers {
  const combined: Record<string, unknown> = {};
  for (const [area, make] of Object.entries(HANDLER_AREAS)) {
    for (const [channel, handler] of Object.entries(make(deps))) {
      if (channel in combined) throw new Error(`Two handlers for ${channel} (one in ${area}).`);
      combined[channel] = handler;
    }
  }
  const missing = IPC_CHANNELS.filter((channel) => !(channel in combined));
  if (missing.length > 0) throw new Error(`No handler for ${missing.join(', ')}.`);
  return combined as IpcHandlers;
}
