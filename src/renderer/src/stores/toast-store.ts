import { create } from 'zustand';

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  detail: string | null;
  /** Where the toast leads (a hash route such as "/orders/ord_1"), with the link's words. */
  link: ToastLink | null;
  /** A button in the toast (e.g. Undo); pressing it runs `run` and dismisses the toast. */
  action: ToastAction | null;
}

export interface ToastLink {
  route: string;
  label: string;
}

export interface ToastAction {
  label: string;
  run(): void;
}

export interface ToastOptions {
  link?: ToastLink;
  action?: ToastAction;
  /** How long it stays, in ms (errors stay until dismissed unless this is given). */
  durationMs?: number;
}

interface ToastStore {
  toasts: Toast[];
  push(kind: ToastKind, title: string, detail?: string | null, options?: ToastOptions): number;
  dismiss(id: number): void;
}

let nextId = 1;
const AUTO_DISMISS_MS = 6000;

/** Notifications: errors stay until dismissed, the rest go away on their own. */
export const useToastStore = create<ToastStore>((set, get) => ({
  toasts: [],
  push(kind, title, detail = null, options = {}) {
    const id = nextId++;
    // One copy of a message at a time: a repeated failure does not stack up.
    const others = get().toasts.filter((t) => !(t.title === title && t.detail === detail));
    const link = options.link ?? null;
    const action = options.action ?? null;
    set({ toasts: [...others, { id, kind, title, detail, link, action }].slice(-4) });
    const duration = options.durationMs ?? (kind === 'error' ? null : AUTO_DISMISS_MS);
    if (duration !== null) setTimeout(() => get().dismiss(id), duration);
    return id;
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
  info: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('info', title, detail, options),
};
