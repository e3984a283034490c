import { call, None, Nothing, type AreaChannels } from './channel';

/** sync.now: "Sync now", on demand. */
export const syncChannels = {
  /** Pull now (products, shipping methods, protocols, recent orders) and push the outbox. */
  'sync.now': call(None, Nothing),
} as const satisfies AreaChannels<'sync'>;
