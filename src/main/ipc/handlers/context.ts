import type { IpcChannel, IpcParsedArgs, IpcValue } from '@shared/ipc';
import type { SavePdfResult } from '@shared/schedule-pdf';
import { ensurePricing } from '@main/catalog/partner-pricing';
import type { Session } from '@main/connection-session';
import type { Core } from '@main/core';
import type { Logger } from '@main/logging';
import { notConnected } from '../errors';

export type { Session };

/** What differs between the two transports (Electron, browser host). */
export interface IpcHost {
  transport: 'electron' | 'browser';
  version: string;
  platform: string;
  /** Opens an http(s) URL outside the app (already validated by the contract). */
  openExternal(url: string): Promise<void>;
  /**
   * Saves the window's page as it prints as a PDF, where the user chooses (`fileName` proposed,
   * already validated). Electron only: the browser host has none (the browser prints itself).
   */
  savePdf?(fileName: string): Promise<SavePdfResult>;
}

/** One channel's handler: takes the parsed argument, answers the contract's value or throws. */
export type IpcHandler<C extends IpcChannel> = (args: IpcParsedArgs<C>) => Promise<IpcValue<C>>;

/** The channels of one area: those named `<area>.*` in the contract. */
export type AreaChannel<A extends string> = Extract<IpcChannel, `${A}.${string}`>;

/** One handler for each channel of an area, and nothing else. */
export type AreaHandlers<A extends string> = { [C in AreaChannel<A>]: IpcHandler<C> };

/** What every area's handlers are made with. */
export interface IpcHandlerDeps {
  core: Core;
  host: IpcHost;
  log: Logger;
}

/** The running session, or the not-connected failure every call without one answers. */
export function requireSession(core: Core): Session {
  const s = core.session;
  if (!s) throw notConnected();
  return s;
}

/**
 * What every handler of the connection's data does around its work: the running session, or the
 * not-connected failure first. The rest is the same for every call: dispatch.ts turns a throw into
 * the call's IpcError, and index.ts answers 'unavailable' before the data is open. Bound to the
 * Core once per area: `'x.y': withSession(async (args, s) => …)`.
 */
export const sessionWrapper =
  (core: Core) =>
  <A, R>(work: (args: A, s: Session) => Promise<R>) =>
  async (args: A): Promise<R> =>
    work(args, requireSession(core));

/** A mirror that was never filled is filled first, so a fresh connection shows its catalog. */
export async function ensureMirror(core: Core, isEmpty: () => boolean): Promise<void> {
  const s = requireSession(core);
  if (isEmpty() && s.connectivity.online) await s.sync.syncNow();
}

/** The catalog, fetched first when this connection has never synced it (and can). */
export const ensureCatalog = (core: Core): Promise<void> =>
  ensureMirror(core, () => core.store.products.count() === 0);

/** The pricing terms estimates use, read first when they never were on this connection. */
export function pricingTerms({ core, log }: Pick<IpcHandlerDeps, 'core' | 'log'>) {
  const s = requireSession(core);
  return ensurePricing({
    store: core.store,
    client: s.client,
    clock: core.clock,
    online: s.connectivity.online,
    log: (line) => log.child('pricing').warn(line),
  });
}
