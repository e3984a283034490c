import { useEffect } from 'react';
import { useUndoStore } from '@renderer/stores/undo-store';

/** Inputs with no text of their own: Ctrl+Z there is the app's undo. */
const NOT_TEXT = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
]);

/** Whether the focus is where the browser's own text undo works (a field, an editable area). */
export function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && !NOT_TEXT.has(target.type);
}

/**
 * Ctrl/Cmd+Z undoes the last change, Ctrl/Cmd+Shift+Z and Ctrl+Y redo it: everywhere but in a
 * text field, where the keys keep undoing typing.
 */
export function useUndoShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.defaultPrevented) return;
      const key = event.key.toLowerCase();
      const redo = (key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey);
      const undo = key === 'z' && !event.shiftKey;
      if (!undo && !redo) return;
      if (inTextField(event.target)) return;
      event.preventDefault();
      const store = useUndoStore.getState();
      void (undo ? store.undo() : store.redo());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
