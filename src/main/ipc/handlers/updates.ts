import { SETTING_KEYS } from '@main/db';
import { UpdateRefused } from '@main/updates/update-controller';
import { IpcFailure } from '../errors';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** updates.*: the app's own updates (updates/update-controller.ts). */
export function updatesHandlers({ core }: IpcHandlerDeps): AreaHandlers<'updates'> {
  return {
    'updates.get': async () => core.updates.view(),
    'updates.configure': async (settings) => {
      const before = JSON.stringify(core.updates.view().settings);
      const view = core.updates.configure(settings);
      if (JSON.stringify(view.settings) !== before)
        core.recordActivity({
          action: 'settings-changed',
          detail: { scope: 'app', keys: [SETTING_KEYS.updates] },
        });
      return view;
    },
    'updates.check': async () =>
      refusedUpdate(() => {
        // The outcome (and a failure) arrives as update-status events.
        void core.updates.check();
        return core.updates.view();
      }),
    'updates.install': async () =>
      refusedUpdate(() => {
        core.updates.install();
        return null;
      }),
  };
}

/** An update call the controller refuses, as the failure the window shows. */
function refusedUpdate<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error;
    throw new IpcFailure(
      error.reason === 'unsupported' ? 'unavailable' : 'conflict',
      error.message,
    );
  }
}
