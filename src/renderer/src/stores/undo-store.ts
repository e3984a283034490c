import { create } from 'zustand';
import type { IpcArgs } from '@shared/ipc';
import type { UndoOutcome } from '@shared/undo-views';
import { call, errorMessage } from '../lib/ipc';
import { useAppStore } from './app-store';
import { usePendingDeleteStore } from './pending-delete-store';
import { useProtocolsStore } from './protocols-store';
import { toast, type ToastAction } from './toast-store';

/** The step a toast's Undo or Redo means (main refuses when the next step is another). */
export type UndoWhich = IpcArgs<'undo.undo'>;

interface UndoStore {
  /** An undo or redo is on its way to main: a second press waits for it. */
  busy: boolean;
  /**
   * Undoes the newest change: a delete still in its Undo window first (nothing was sent to main
   * yet), else main's newest step. With `which`, only the step meant (a toast's Undo).
   */
  undo(which?: UndoWhich): Promise<void>;
  /** Redoes the change undone last (with `which`, only the step meant). */
  redo(which?: UndoWhich): Promise<void>;
}

/**
 * What an undo or redo of the protocol list's columns or filters leaves to the window: the
 * columns main has set, or the filters and sort, which live only here (shown as no new step).
 */
function applyToList(outcome: UndoOutcome): void {
  if (outcome.columns) useAppStore.getState().showProtocolColumns(outcome.columns);
  if (outcome.view) useProtocolsStore.getState().applyView(outcome.view);
}

/**
 * The toast after an undo or redo: what it did, and the way back. A step of the list's columns
 * or filters names the list, and leads there from another screen.
 */
function told(way: 'undo' | 'redo', outcome: UndoOutcome, again: ToastAction['run']): void {
  const ofList = outcome.columns !== undefined || outcome.view !== undefined;
  toast.info(`${way === 'undo' ? 'Undone' : 'Redone'}: ${outcome.step.label}.`, null, {
    topic: 'undo',
    action: { label: way === 'undo' ? 'Redo' : 'Undo', run: again },
    ...(ofList ? { link: { route: '/protocols', label: 'Show the protocol list' } } : {}),
  });
}

/**
 * Undo and redo of the window (Ctrl+Z, Ctrl+Shift+Z, a toast's Undo, the palette): main keeps
 * the history of each connection (main/protocols/undo.ts) and applies a step through the same
 * commands as any change; this store asks, and says what was done.
 */
export const useUndoStore = create<UndoStore>((set, get) => ({
  busy: false,

  async undo(which) {
    if (get().busy) return;
    if (which === undefined && takeBackPendingDelete()) return;
    set({ busy: true });
    const result = await call('undo.undo', which ?? {});
    set({ busy: false });
    if (!result.ok) {
      if (result.error.kind === 'not-found' && which === undefined)
        toast.info('Nothing to undo.', null, { topic: 'undo' });
      else toast.error('Could not undo.', errorMessage(result.error), { topic: 'undo' });
      return;
    }
    applyToList(result.value);
    const seq = result.value.step.seq;
    told('undo', result.value, () => void get().redo({ seq }));
  },

  async redo(which) {
    if (get().busy) return;
    set({ busy: true });
    const result = await call('undo.redo', which ?? {});
    set({ busy: false });
    if (!result.ok) {
      if (result.error.kind === 'not-found' && which === undefined)
        toast.info('Nothing to redo.', null, { topic: 'undo' });
      else toast.error('Could not redo.', errorMessage(result.error), { topic: 'undo' });
      return;
    }
    applyToList(result.value);
    const seq = result.value.step.seq;
    told('redo', result.value, () => void get().undo({ seq }));
  },
}));

/** The newest delete still in its Undo window, taken back; false when there is none. */
function takeBackPendingDelete(): boolean {
  const pending = Object.values(usePendingDeleteStore.getState().pending);
  const newest = pending.at(-1);
  if (!newest || !usePendingDeleteStore.getState().undo(newest.localId)) return false;
  toast.info(`Undone: Delete of the protocol for ${newest.name}.`, null, { topic: 'undo' });
  return true;
}

/**
 * The Undo a toast offers after a command: it undoes that command's step only, so that pressing
 * it after something newer was done says so instead of undoing the newer change.
 */
export const undoAction = (which: UndoWhich): ToastAction => ({
  label: 'Undo',
  run: () => void useUndoStore.getState().undo(which),
});
