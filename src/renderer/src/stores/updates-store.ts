import { create } from 'zustand';
import type { IpcError, IpcResult } from '@shared/ipc';
import type { UpdateSettings, UpdatesView } from '@shared/update-views';
import { call } from '../lib/ipc';

interface UpdatesStore {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  view: UpdatesView | null;
  error: IpcError | null;
  load(): Promise<void>;
  /** Saves the settings; on success the store holds main's answer. */
  configure(settings: UpdateSettings): Promise<IpcResult<UpdatesView>>;
  check(): Promise<IpcResult<UpdatesView>>;
  install(): Promise<IpcResult<null>>;
  /** An update-status event. */
  apply(view: UpdatesView): void;
}

/** The newer of two views: answers and events may cross on the way (UpdatesView.seq). */
const newer = (current: UpdatesView | null, next: UpdatesView): UpdatesView =>
  current && current.seq > next.seq ? current : next;

/** The app's own updates as Settings shows them: main's view, kept current by its events. */
export const useUpdatesStore = create<UpdatesStore>((set, get) => ({
  state: 'idle',
  view: null,
  error: null,

  async load() {
    set({ state: 'loading', error: null });
    const result = await call('updates.get', {});
    if (result.ok) set({ state: 'ready', view: newer(get().view, result.value) });
    else set({ state: 'failed', error: result.error });
  },

  async configure(settings) {
    const result = await call('updates.configure', settings);
    if (result.ok) set({ state: 'ready', view: newer(get().view, result.value), error: null });
    return result;
  },

  async check() {
    const result = await call('updates.check', {});
    if (result.ok) set({ view: newer(get().view, result.value) });
    return result;
  },

  install: () => call('updates.install', {}),

  apply: (view) => set({ state: 'ready', view: newer(get().view, view) }),
}));
