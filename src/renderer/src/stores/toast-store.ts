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
  /** What the toast is about ("sync", "protocol:<id>"): news on it makes the toast stale. */
  topic: string | null;
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
  /** What it is about: a later toast on the topic replaces it, and `settle` takes it away. */
  topic?: string;
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
  /** Something newer is known of the topic (the sync succeeded, the save was refused): its toasts go. */
  settle(topic: string): void;
}

let nextId = 1;
const AUTO_DISMISS_MS = 6000;

/** Notifications: errors stay until dismissed, the rest go away on their own. */
export const useToastStore = create<ToastStore>((set, get) => ({
  toasts: [],
  push(kind, title, detail = null, options = {}) {
    const id = nextId++;
    // One copy of a message at a time: a repeated failure does not stack up, and a toast on a
    // topic replaces the one before (a success after a failure says only the news).
    const topic = options.topic ?? null;
    const others = get().toasts.filter(
      (t) => !(t.title === title && t.detail === detail) && (topic === null || t.topic !== topic),
    );
    const link = options.link ?? null;
    const action = options.action ?? null;
    set({ toasts: [...others, { id, kind, title, detail, link, action, topic }].slice(-4) });
    const duration = options.durationMs ?? (kind === 'error' ? null : AUTO_DISMISS_MS);
    if (duration !== null) setTimeout(() => get().dismiss(id), duration);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
  settle(topic) {
    if (get().toasts.some((t) => t.topic === topic))
      set({ toasts: get().toasts.filter((t) => t.topic !== topic) });
  },
}));

export const toast = {
  error: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('error', title, detail, options),
  success: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('success', title, detail, options),
  info: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('info', title, detail, options),
};
