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

/** A route as the address bar may spell it: decoded, without a trailing slash. */
function routeKey(route: string): string {
  let path = route.split(/[?#]/)[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: compare it as it is.
  }
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * The toast's link, unless it leads where the user already is ("Open the batch" on that batch's
 * screen would do nothing): `location` is the current route.
 */
export const linkAway = (link: ToastLink | null, location: string): ToastLink | null =>
  link && routeKey(link.route) !== routeKey(location) ? link : null;

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
