import { create } from 'zustand';
import type { StaffView } from '@shared/activity-views';
import type { IpcResult } from '@shared/ipc';
import { call } from '../lib/ipc';

interface StaffStore {
  add(name: string): Promise<IpcResult<StaffView>>;
  rename(from: string, to: string): Promise<IpcResult<StaffView>>;
  remove(name: string): Promise<IpcResult<StaffView>>;
  /** Years the activity record is kept. */
  setRetention(years: number): Promise<IpcResult<null>>;
}

/**
 * The Settings screen's commands on this desk's people and the activity record's retention. What
 * they write reaches the header and the screen as a change of the settings (app.state is read
 * again); each answers its result, so a form can show a refusal on its field.
 */
export const useStaffStore = create<StaffStore>(() => ({
  add: (name) => call('staff.add', { name }),
  rename: (from, to) => call('staff.rename', { from, to }),
  remove: (name) => call('staff.remove', { name }),
  setRetention: (years) => call('activity.setRetention', { years }),
}));
