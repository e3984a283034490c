import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { linkAway, useToastStore } from '../stores/toast-store';

/** Notifications in one labelled region: errors are alerts, the rest polite status messages. */
export function Toasts() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  const markRead = useToastStore((s) => s.markRead);
  const [location] = useLocation();
  return (
    <section className="toasts" aria-label="Notifications">
      {toasts.map((t) => {
        const Icon = t.kind === 'error' ? XCircle : t.kind === 'success' ? CheckCircle2 : Info;
        const link = linkAway(t.link, location);
        return (
          <div
            key={t.id}
            className={`toast toast-${t.kind}`}
            role={t.kind === 'error' ? 'alert' : 'status'}
          >
            <Icon aria-hidden="true" size={18} className="toast-icon" />
            <div className="toast-text">
              <p className="toast-title">{t.title}</p>
              {t.detail && <p className="toast-detail">{t.detail}</p>}
              {link && (
                <Link
                  href={link.route}
                  className="toast-link"
                  onClick={() => {
                    dismiss(t.id);
                    markRead(t.id);
                  }}
                >
                  {link.label}
                </Link>
              )}
            </div>
            {t.action && (
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  dismiss(t.id);
                  t.action?.run();
                }}
              >
                {t.action.label}
              </button>
            )}
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss notification"
              onClick={() => dismiss(t.id)}
            >
              <X aria-hidden="true" size={16} />
            </button>
          </div>
        );
      })}
    </section>
  );
}
