import { IPC_CHANNELS, type IpcChannel } from '@shared/ipc';
import { StoreError } from '@main/db';
import type { StartupPort } from '@main/startup';
import { activityHandlers } from './activity';
import { appHandlers } from './app';
import { batchesHandlers } from './batches';
import { catalogHandlers } from './catalog';
import { connectionsHandlers } from './connections';
import { dashboardHandlers } from './dashboard';
import type { AreaChannel, AreaHandlers, IpcHandler, IpcHandlerDeps } from './context';
import { ordersHandlers } from './orders';
import { paletteHandlers } from './palette';
import { patientsHandlers } from './patients';
import { practiceHandlers } from './practice';
import { protocolsHandlers } from './protocols';
import { refillsHandlers } from './refills';
import { scheduleHandlers } from './schedule';
import { settingsHandlers } from './settings';
import { startupHandlers } from './startup';
import { staffHandlers } from './staff';
import { syncHandlers } from './sync';
import { undoHandlers } from './undo';
import { updatesHandlers } from './updates';

export type { IpcHandler, IpcHandlerDeps } from './context';

/** One handler per channel: takes the parsed argument, answers the contract's value or throws. */
export type IpcHandlers = { [C in IpcChannel]: IpcHandler<C> };

/** The channels answered by the Core, once the data is open: all but startup.*. */
type CoreChannel = Exclude<IpcChannel, AreaChannel<'startup'>>;
export type CoreHandlers = { [C in CoreChannel]: IpcHandler<C> };

/** The areas of the contract the Core answers: the prefixes of its channel names. */
type Area =
  | 'app'
  | 'connections'
  | 'sync'
  | 'catalog'
  | 'protocols'
  | 'batches'
  | 'orders'
  | 'refills'
  | 'dashboard'
  | 'patients'
  | 'palette'
  | 'settings'
  | 'schedule'
  | 'updates'
  | 'practice'
  | 'activity'
  | 'staff'
  | 'undo';

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
  dashboard: dashboardHandlers,
  patients: patientsHandlers,
  palette: paletteHandlers,
  settings: settingsHandlers,
  schedule: scheduleHandlers,
  updates: updatesHandlers,
  practice: practiceHandlers,
  activity: activityHandlers,
  staff: staffHandlers,
  undo: undoHandlers,
} satisfies { [A in Area]: (deps: IpcHandlerDeps) => AreaHandlers<A> };

/**
 * A channel of the contract outside every area has no handler: adding one under a new prefix
 * fails to compile here until its area is listed above (or is startup's).
 */
type Unhandled = Exclude<IpcChannel, AreaChannel<Area | 'startup'>>;
const everyChannelHandled: [Unhandled] extends [never] ? true : Unhandled = true;
void everyChannelHandled;

/**
 * The Core's handlers, the areas combined. Also checked when it runs (and in
 * test/unit/main/ipc/ipc-handlers.test.ts): each channel answered by exactly one area.
 */
export function createCoreHandlers(deps: IpcHandlerDeps): CoreHandlers {
  const combined: Record<string, unknown> = {};
  for (const [area, make] of Object.entries(HANDLER_AREAS)) {
    for (const [channel, handler] of Object.entries(make(deps))) {
      if (channel in combined) throw new Error(`Two handlers for ${channel} (one in ${area}).`);
      combined[channel] = handler;
    }
  }
  const missing = IPC_CHANNELS.filter(
    (channel) => !channel.startsWith('startup.') && !(channel in combined),
  );
  if (missing.length > 0) throw new Error(`No handler for ${missing.join(', ')}.`);
  return combined as CoreHandlers;
}

/**
 * Every channel's handler: startup.* at once, the rest through the Core once the data is open
 * (until then they answer 'unavailable', saying so).
 */
export function createIpcHandlers(deps: Omit<IpcHandlerDeps, 'core'> & { startup: StartupPort }) {
  let core: CoreHandlers | null = null;
  const coreHandlers = (): CoreHandlers => {
    if (core) return core;
    const opened = deps.startup.core;
    if (!opened)
      throw new StoreError(
        'unavailable',
        'Order Desk is still opening its data (or waiting for you on its start screen).',
      );
    core = createCoreHandlers({ core: opened, host: deps.host, log: deps.log });
    return core;
  };
  const lazy = Object.fromEntries(
    IPC_CHANNELS.filter((channel) => !channel.startsWith('startup.')).map((channel) => [
      channel,
      (args: never) =>
        (coreHandlers()[channel as CoreChannel] as (a: never) => Promise<unknown>)(args),
    ]),
  ) as unknown as CoreHandlers;
  return { ...lazy, ...startupHandlers(deps.startup) } satisfies IpcHandlers;
}
