import { create } from 'zustand';

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  detail: string | null;
}

interface ToastStore {
  toasts: Toast[];
  push(kind: ToastKind, title: string, detail?: string | null): void;
  dismiss(id: number): void;
}

let nextId = 1;
const AUTO_DISMISS_MS = 6000;

/** Notifications: errors stay until dismissed, the rest go away on their own. */
export const useToastStore = create<ToastStore>((set, get) => ({
  toasts: [],
  push(kind, title, detail = null) {
    const id = nextId++;
    // One copy of a message at a time: a repeated failure does not stack up.
    const others = get().toasts.filter((t) => !(t.title === title && t.detail === detail));
    set({ toasts: [...others, { id, kind, title, detail }].slice(-4) });
    if (kind !== 'error') setTimeout(() => get().dismiss(id), AUTO_DISMISS_MS);
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
}));

export const toast = {
  error: (title: string, detail?: string | null) =>
    useToastStore.getState().push('error', title, detail),
  success: (title: string, detail?: string | null) =>
    useToastStore.getState().push('success', title, detail),
  info: (title: string, detail?: string | null) =>
    useToastStore.getState().push('info', title, detail),
};
