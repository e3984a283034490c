import { create } from 'zustand';

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  detail: string | null;
  /** Where the toast leads (a hash route such as "/orders/ord_1"), with the link's words. */
  link: ToastLink | null;
}

export interface ToastLink {
  route: string;
  label: string;
}

interface ToastStore {
  toasts: Toast[];
  push(kind: ToastKind, title: string, detail?: string | null, link?: ToastLink | null): void;
  dismiss(id: number): void;
}

let nextId = 1;
const AUTO_DISMISS_MS = 6000;

/** Notifications: errors stay until dismissed, the rest go away on their own. */
export const useToastStore = create<ToastStore>((set, get) => ({
  toasts: [],
  push(kind, title, detail = null, link = null) {
    const id = nextId++;
    // One copy of a message at a time: a repeated failure does not stack up.
    const others = get().toasts.filter((t) => !(t.title === title && t.detail === detail));
    set({ toasts: [...others, { id, kind, title, detail, link }].slice(-4) });
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
