import { create } from 'zustand';
import { call, errorMessage } from '../lib/ipc';
import { protocolTopic, toast, useToastStore } from './toast-store';

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
  /**
   * Deletes `localId` after the undo window; returns false when it was already pending. The
   * caller drops it from the list's selection (this store knows nothing of selection, so that the
   * protocols store can ask it which protocols are pending without an import circle).
   */
  schedule(localId: string, name: string, onUndo: () => void): boolean;
  /** Cancels the delete; false when it is already on its way. */
  undo(localId: string): boolean;
  /** Sends the delete now (the window closed, or the page goes away). */
  commit(localId: string): Promise<void>;
  commitAll(): void;
}

/** Deletes on their way to main (the timer and pagehide may both fire). */
const sending = new Set<string>();

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
      // It replaces the protocol's "Protocol saved" toast: one Undo on screen, the delete's.
      topic: protocolTopic(localId),
      action: {
        label: 'Undo',
        run: () => {
          if (get().undo(localId)) onUndo();
        },
      },
    });
    return true;
  },

  undo(localId) {
    const entry = get().pending[localId];
    if (!entry || sending.has(localId)) return false;
    clearTimeout(entry.timer);
    const { [localId]: _undone, ...rest } = get().pending;
    set({ pending: rest });
    useToastStore.getState().settle(protocolTopic(localId));
    return true;
  },

  async commit(localId) {
    const entry = get().pending[localId];
    if (!entry || sending.has(localId)) return;
    sending.add(localId);
    clearTimeout(entry.timer);
    // Main deletes the row before it answers: the list, read again without hiding it, no longer
    // finds it, so a deleted protocol does not flash back.
    const result = await call('protocols.delete', { localId });
    sending.delete(localId);
    const { [localId]: _sent, ...rest } = get().pending;
    set({ pending: rest });
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

/** Whether a protocol is waiting out its undo window (hidden from lists, never selected). */
export const isPendingDelete = (localId: string): boolean =>
  usePendingDeleteStore.getState().pending[localId] !== undefined;

/**
 * Leaving the page ends every undo window: the deletes are sent while the connection is up.
 * Returns the function that stops listening.
 */
export function commitPendingDeletesOnLeave(): () => void {
  const commit = () => usePendingDeleteStore.getState().commitAll();
  window.addEventListener('pagehide', commit);
  return () => window.removeEventListener('pagehide', commit);
}
