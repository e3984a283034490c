import type { StartupPort } from '@main/startup';
import type { AreaHandlers } from './context';

/** startup.*: what the app is doing before its data is open, and the user's two ways out. */
export function startupHandlers(startup: StartupPort): AreaHandlers<'startup'> {
  return {
    'startup.state': async () => startup.state,
    'startup.retry': async () => startup.retry(),
    'startup.startFresh': async () => startup.startFresh(),
  };
}
