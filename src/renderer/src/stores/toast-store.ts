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

/** A notification as the history keeps it: what its toast said and led to, and when. */
export interface PastNotification {
  id: number;
  kind: ToastKind;
  title: string;
  detail: string | null;
  link: ToastLink | null;
  /** When it was raised (ms since the epoch, this computer's clock: it is only shown). */
  at: number;
  /** Seen in the history, or its toast's link followed. */
  read: boolean;
}

/** How many past notifications the session keeps, newest first; older ones drop off. */
export const HISTORY_MAX = 200;

interface ToastStore {
  toasts: Toast[];
  /**
   * Every notification of this session, newest first, kept in memory only (patient names are
   * health data: docs/decisions.md, "Notification history").
   */
  history: PastNotification[];
  /** Whether the history is open (the header's button, or a toast's "+N more"). */
  historyOpen: boolean;
  showHistory(open: boolean): void;
  /** Marks one notification read, or every one. */
  markRead(id?: number): void;
  clearHistory(): void;
  push(kind: ToastKind, title: string, detail?: string | null, options?: ToastOptions): number;
  dismiss(id: number): void;
  /** Something newer is known of the topic (the sync succeeded, the save was refused): its toasts go. */
  settle(topic: string): void;
}

let nextId = 1;
const AUTO_DISMISS_MS = 6000;
/** Toasts kept at once (the window shows the newest few; the rest are counted, and in the history). */
const TOASTS_MAX = 20;

/** Notifications: errors stay until dismissed, the rest go away on their own. */
export const useToastStore = create<ToastStore>((set, get) => ({
  toasts: [],
  history: [],
  historyOpen: false,
  showHistory: (historyOpen) => set({ historyOpen }),
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
    // Every toast is kept in the history; an Undo is not (it means nothing once its toast is gone).
    const past: PastNotification = { id, kind, title, detail, link, at: Date.now(), read: false };
    set({
      toasts: [...others, { id, kind, title, detail, link, action, topic }].slice(-TOASTS_MAX),
      history: [past, ...get().history].slice(0, HISTORY_MAX),
    });
    const duration = options.durationMs ?? (kind === 'error' ? null : AUTO_DISMISS_MS);
    if (duration !== null) setTimeout(() => get().dismiss(id), duration);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((t) => t.id !== id) });
  },
  markRead(id) {
    set({
      history: get().history.map((n) =>
        n.read || (id !== undefined && n.id !== id) ? n : { ...n, read: true },
      ),
    });
  },
  clearHistory: () => set({ history: [] }),
  settle(topic) {
    if (get().toasts.some((t) => t.topic === topic))
      set({ toasts: get().toasts.filter((t) => t.topic !== topic) });
  },
}));

/**
 * The toasts about one protocol (saved, deleted): the newer replaces the older, and news of a
 * refusal or a conflict takes them away.
 */
export const protocolTopic = (localId: string) => `protocol:${localId}`;

export const toast = {
  error: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('error', title, detail, options),
  success: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('success', title, detail, options),
  info: (title: string, detail?: string | null, options?: ToastOptions) =>
    useToastStore.getState().push('info', title, detail, options),
};
