import type { IpcArgs } from '@shared/ipc';
import { call } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The Connect screen's reads and commands: the saved connections and what is done to them. */

/** The saved connections, read again when one is added, edited, activated or removed. */
export function useConnections() {
  // Live: the saved connections are read again when one is added, edited, activated or removed.
  const read = useLiveQuery((read) => read('connections.list', {}), []);
  return read;
}

/** Tries a partner's address and credentials without saving them. */
export function testConnection(values: IpcArgs<'connections.test'>) {
  return call('connections.test', values);
}

/** Saves a partner connection and connects to it. */
export function connectPartner(values: IpcArgs<'connections.connect'>) {
  return call('connections.connect', values);
}

/** Saves an edit of a saved connection (its secret only when typed again). */
export function updateConnection(args: IpcArgs<'connections.update'>) {
  return call('connections.update', args);
}

/** The built-in local sandbox: started on a free loopback port and connected. */
export function startEmbeddedSandbox() {
  return call('connections.useEmbedded', {});
}

/** Makes a saved connection the active one. */
export function activateConnection(id: string) {
  return call('connections.activate', { id });
}

/** What removing a connection would delete, for the user to confirm. */
export function connectionRemoval(id: string) {
  return call('connections.removal', { id });
}

/** Removes a connection and its local data. */
export function removeConnection(id: string) {
  return call('connections.remove', { id });
}
