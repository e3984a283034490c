import { create } from 'zustand';
import type { PartnerSettings, PartnerSettingsPatch } from '@shared/api';
import type { IpcError, IpcResult } from '@shared/ipc';
import { call } from '../lib/ipc';

interface SettingsStore {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  settings: PartnerSettings | null;
  error: IpcError | null;
  load(): Promise<void>;
  /** Sends only the fields in the patch; on success the store holds the server's answer. */
  update(patch: PartnerSettingsPatch): Promise<IpcResult<PartnerSettings>>;
  reset(): void;
}

/**
 * The partner's settings as the Settings screen edits them. Estimates never read them from here:
 * they use the terms main keeps (catalog.pricing, a live query: main keeps the terms of every
 * settings answer, and the estimates follow).
 */
export const useSettingsStore = create<SettingsStore>((set) => ({
  state: 'idle',
  settings: null,
  error: null,

  async load() {
    set({ state: 'loading', error: null });
    const result = await call('settings.get', {});
    if (result.ok) {
      set({ state: 'ready', settings: result.value });
    } else set({ state: 'failed', error: result.error });
  },

  async update(patch) {
    const result = await call('settings.update', patch);
    if (result.ok) {
      set({ state: 'ready', settings: result.value, error: null });
    }
    return result;
  },

  reset: () => set({ state: 'idle', settings: null, error: null }),
}));
