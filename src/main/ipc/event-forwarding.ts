import { WindowEventSchemas } from '@shared/core-events';
import { IPC_EVENTS, type IpcEventName } from '@shared/ipc';
import type { Logger } from '../logging';
import type { StartupPort } from '../startup';
import { toConnectionView } from './connection-view';

/** The bus's events the window hears (the others are main's own). */
const CORE_EVENTS = Object.keys(WindowEventSchemas) as (keyof typeof WindowEventSchemas)[];

/**
 * Sends every event of the contract to one renderer: the startup's phases, then, once the data
 * is open, each CoreEventBus event of WindowEventSchemas, and 'connection-changed' when the active connection changes.
 * Each payload is checked against the contract first (one that does not match is logged and not
 * sent). Returns the function that stops forwarding.
 */
export function forwardIpcEvents(
  startup: StartupPort,
  send: (event: IpcEventName, payload: unknown) => void,
  log?: Logger,
): () => void {
  const forward = (event: IpcEventName, payload: unknown) => {
    const checked = IPC_EVENTS[event].safeParse(payload);
    if (!checked.success) {
      log?.error(`dropped a "${event}" event that does not match the contract`);
      return;
    }
    try {
      send(event, checked.data);
    } catch (error) {
      log?.error(`could not send a "${event}" event`, error);
    }
  };
  let stopped = false;
  const stops = [startup.onChange((view) => forward('startup', view))];
  void startup.ready.then((core) => {
    if (stopped) return;
    stops.push(
      ...CORE_EVENTS.map((name) => core.bus.on(name, (payload) => forward(name, payload))),
      core.onConnectionChanged((active) =>
        forward('connection-changed', { connection: active ? toConnectionView(active) : null }),
      ),
    );
  });
  return () => {
    stopped = true;
    for (const stop of stops.splice(0)) stop();
  };
}
