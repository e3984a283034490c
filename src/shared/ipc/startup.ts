import { z } from 'zod';
import { StartupView } from '../startup-views';
import { call, None, type AreaChannels } from './channel';

/** startup.*: what the app is doing before its data is open, and the user's two ways out. */
export const startupChannels = {
  /**
   * Before the data is open: what the app is doing (encrypting, or waiting because the files
   * cannot be opened with this desk's key). Every other call answers 'unavailable' until 'ready'.
   */
  'startup.state': call(None, StartupView),
  /** After the keychain was restored (or unlocked): tries to open the data again. */
  'startup.retry': call(None, StartupView),
  /**
   * The files that cannot be opened are moved aside (kept, never deleted) and the app starts
   * with empty stores (and a new key when the old one is missing).
   */
  'startup.startFresh': call(z.object({ confirm: z.literal(true) }), StartupView),
} as const satisfies AreaChannels<'startup'>;
