import { call } from './ipc';

/** Opens a page (a carrier's tracking page) in the system's browser, outside the app. */
export function openExternal(url: string) {
  return call('app.openExternal', { url });
}
