import { StaffRefused } from '@main/activity/desk';
import { SETTING_KEYS } from '@main/db';
import { IpcFailure } from '../errors';
import type { AreaHandlers, IpcHandlerDeps } from './context';

/** staff.*: the people who share this desk (Settings) and who is at it (the header). */
export function staffHandlers({ core }: IpcHandlerDeps): AreaHandlers<'staff'> {
  /** A change of the list or the pick, recorded as a setting of this desk changed. */
  const change = (key: string, run: () => ReturnType<typeof core.desk.view>) => {
    const before = JSON.stringify(core.desk.view());
    let view;
    try {
      view = run();
    } catch (error) {
      if (!(error instanceof StaffRefused)) throw error;
      throw new IpcFailure('validation', error.message, [
        { path: [error.field], message: error.message },
      ]);
    }
    if (JSON.stringify(view) !== before)
      core.recordActivity({ action: 'settings-changed', detail: { scope: 'app', keys: [key] } });
    return view;
  };
  return {
    'staff.add': async ({ name }) => change(SETTING_KEYS.staff, () => core.desk.add(name)),
    'staff.rename': async ({ from, to }) =>
      change(SETTING_KEYS.staff, () => core.desk.rename(from, to)),
    'staff.remove': async ({ name }) => change(SETTING_KEYS.staff, () => core.desk.remove(name)),
    'staff.choose': async ({ name }) => change(SETTING_KEYS.atDesk, () => core.desk.choose(name)),
  };
}
