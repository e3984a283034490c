import { useAppStore } from './app-store';
import { useToastStore } from './toast-store';
import { on } from '@renderer/lib/ipc';
import { NotificationDecider, type Notice } from '@renderer/lib/notify';

/**
 * Shows the news NotificationDecider picks out of main's events: a desktop notification in
 * Electron (the Web Notification API, which Electron shows as the system's own), a toast in the
 * browser host. Nothing is shown while the setting is off; what happened meanwhile is not shown
 * later either.
 */

let decider = new NotificationDecider();

/** A batch submitted from this window: its end is announced even if its first event says done. */
export function watchBatch(batchId: string): void {
  decider.watchBatch(batchId);
}

/** A cancel this window reports itself (bulk cancel): not announced again. Answers the undo. */
export function reportCancelHere(orderId: string): () => void {
  return decider.reportCancelHere(orderId);
}

function linkLabel(route: string): string {
  if (route.startsWith('/orders/')) return 'Open the order';
  if (route.startsWith('/batches/')) return 'Open the batch';
  return 'Open the protocols';
}

function showToast(notice: Notice): void {
  useToastStore.getState().push(notice.kind, notice.title, notice.body, {
    link: { route: notice.route, label: linkLabel(notice.route) },
    ...(notice.topic ? { topic: notice.topic } : {}),
  });
}

function showDesktop(notice: Notice): void {
  if (typeof Notification === 'undefined' || Notification.permission === 'denied') {
    showToast(notice);
    return;
  }
  const shown = new Notification(notice.title, {
    body: notice.body,
    tag: notice.topic ?? notice.key,
  });
  shown.onclick = () => {
    window.focus();
    window.location.hash = `#${notice.route}`;
    shown.close();
  };
}

function show(notices: readonly (Notice | null)[]): void {
  const app = useAppStore.getState();
  if (!app.notifications) return;
  for (const notice of notices) {
    if (!notice) continue;
    if (app.transport === 'electron') showDesktop(notice);
    else showToast(notice);
  }
}

/** Listens to the events that make news; returns the function that stops listening. */
export function subscribeToNotifications(): () => void {
  decider = new NotificationDecider();
  let connectionId = useAppStore.getState().connection?.id ?? null;
  const seed = () => decider.seedOutbox(useAppStore.getState().outbox);
  if (useAppStore.getState().status === 'ready') seed();
  const offs = [
    // app.state at load is where the outbox counts start; a drop after that is news.
    useAppStore.subscribe((s, before) => {
      if (s.status === 'ready' && before.status !== 'ready') {
        connectionId = s.connection?.id ?? null;
        seed();
      }
    }),
    // Another connection's work is not news about this one's.
    on('connection-changed', ({ connection }) => {
      if (connection?.id === connectionId) return;
      connectionId = connection?.id ?? null;
      decider = new NotificationDecider();
    }),
    on('order-status', (event) => show([decider.orderStatus(event)])),
    on('batch-progress', (event) => show(decider.batchProgress(event))),
    on('outbox-count', (event) => show([decider.outboxCount(event)])),
  ];
  return () => offs.forEach((off) => off());
}
