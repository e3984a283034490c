import { Bell, CheckCircle2, Info, XCircle } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { formatMoment } from '../lib/dates';
import { plural } from '../lib/format';
import { linkAway, useToastStore, type PastNotification } from '../stores/toast-store';
import { Dialog } from './Dialog';

const ICONS = { error: XCircle, success: CheckCircle2, info: Info } as const;
const KIND_WORDS = { error: 'Problem', success: 'Done', info: 'Note' } as const;

function Entry({ n, onFollow }: { n: PastNotification; onFollow(): void }) {
  const [location] = useLocation();
  const Icon = ICONS[n.kind];
  const link = linkAway(n.link, location);
  return (
    <li className={`history-entry toast-${n.kind}${n.read ? '' : ' history-unread'}`}>
      <Icon aria-hidden="true" size={16} className="toast-icon" />
      <div className="toast-text">
        <p className="toast-title">
          <span className="visually-hidden">
            {KIND_WORDS[n.kind]}
            {n.read ? '' : ', unread'}:{' '}
          </span>
          {n.title}
        </p>
        {n.detail && <p className="toast-detail">{n.detail}</p>}
        <p className="history-meta">
          <time dateTime={new Date(n.at).toISOString()}>{formatMoment(new Date(n.at))}</time>
          {link && (
            <>
              {' · '}
              <Link href={link.route} className="toast-link" onClick={onFollow}>
                {link.label}
              </Link>
            </>
          )}
        </p>
      </div>
    </li>
  );
}

/**
 * The header's Notifications button (with how many are unread) and the history it opens: every
 * notification of this session, newest first, with its time and its toast's link. Closing the
 * history marks what it showed as read; Clear empties it.
 */
export function NotificationHistory() {
  const open = useToastStore((s) => s.historyOpen);
  const onOpenChange = useToastStore((s) => s.showHistory);
  const history = useToastStore((s) => s.history);
  const markRead = useToastStore((s) => s.markRead);
  const clear = useToastStore((s) => s.clearHistory);
  const unread = history.filter((n) => !n.read).length;
  const close = () => {
    markRead();
    onOpenChange(false);
  };
  return (
    <>
      <button
        type="button"
        className="button notifications-button"
        aria-haspopup="dialog"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={() => onOpenChange(true)}
      >
        <Bell aria-hidden="true" size={16} />
        {unread > 0 && (
          <span className="notifications-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <Dialog open={open} title="Notifications" onClose={close}>
        {history.length === 0 ? (
          <p className="dialog-body muted">No notifications yet in this session.</p>
        ) : (
          <>
            <p className="muted history-summary">
              {plural(history.length, 'notification')} this session, newest first
              {unread > 0 ? `; ${unread} unread` : ''}.
            </p>
            <ul className="dialog-body history-list" aria-label="Past notifications">
              {history.map((n) => (
                <Entry
                  key={n.id}
                  n={n}
                  onFollow={() => {
                    markRead(n.id);
                    close();
                  }}
                />
              ))}
            </ul>
          </>
        )}
        <div className="dialog-actions">
          {/* Never disabled: a button that disables itself when pressed drops the focus. */}
          <button type="button" className="button" onClick={() => markRead()}>
            Mark all read
          </button>
          <button type="button" className="button" onClick={clear}>
            Clear
          </button>
          <button type="button" className="button button-primary" data-autofocus onClick={close}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
