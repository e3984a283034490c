import { create } from 'zustand';
import { call, errorMessage } from '../lib/ipc';
import { toast } from './toast-store';

/** How long a deleted protocol can be brought back before the delete is sent to main. */
export const UNDO_WINDOW_MS = 8000;

interface PendingDelete {
  localId: string;
  name: string;
  timer: ReturnType<typeof setTimeout>;
}

interface PendingDeleteStore {
  /** Protocols deleted on screen whose delete main has not been told of yet (hide them in lists). */
  pending: Record<string, PendingDelete>;
  /** Deletes `localId` after the undo window; returns false when it was already pending. */
  schedule(localId: string, name: string, onUndo: () => void): boolean;
  undo(localId: string): void;
  /** Sends the delete now (the window closed, or the page goes away). */
  commit(localId: string): Promise<void>;
  commitAll(): void;
}

/**
 * Delete with undo, decided in docs/decisions.md: nothing is sent to main while the "Undo" toast
 * shows. When the window ends (or the page is hidden for good) the delete is sent; if the app
 * closes before that, the protocol simply stays, so an undo can never lose anything.
 */
export const usePendingDeleteStore = create<PendingDeleteStore>((set, get) => ({
  pending: {},

  schedule(localId, name, onUndo) {
    if (get().pending[localId]) return false;
    const timer = setTimeout(() => void get().commit(localId), UNDO_WINDOW_MS);
    set({ pending: { ...get().pending, [localId]: { localId, name, timer } } });
    toast.info(`Deleted the protocol for ${name}.`, null, {
      durationMs: UNDO_WINDOW_MS,
      action: {
        label: 'Undo',
        run: () => {
          get().undo(localId);
          onUndo();
        },
      },
    });
    return true;
  },

  undo(localId) {
    const entry = get().pending[localId];
    if (!entry) return;
    clearTimeout(entry.timer);
    const { [localId]: _undone, ...rest } = get().pending;
    set({ pending: rest });
  },

  async commit(localId) {
    const entry = get().pending[localId];
    if (!entry) return;
    clearTimeout(entry.timer);
    const { [localId]: _sent, ...rest } = get().pending;
    set({ pending: rest });
    const result = await call('protocols.delete', { localId });
    if (!result.ok)
      toast.error(
        `The protocol for ${entry.name} could not be deleted.`,
        errorMessage(result.error),
      );
  },

  commitAll() {
    for (const localId of Object.keys(get().pending)) void get().commit(localId);
  },
}));

if (typeof window !== 'undefined') {
  // Leaving the page ends every undo window: the deletes are sent while the connection is up.
  window.addEventListener('pagehide', () => usePendingDeleteStore.getState().commitAll());
}
