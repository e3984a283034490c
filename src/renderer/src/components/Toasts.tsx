import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useLayoutEffect, useState, type CSSProperties } from 'react';
import { Link, useLocation } from 'wouter';
import { linkAway, useToastStore } from '../stores/toast-store';

/** Toasts shown at once; older ones still showing are counted in "+N more" (the history). */
export const TOASTS_SHOWN = 3;

/**
 * Where the toasts go: over the list of a list-and-detail screen when it shows an order's
 * detail beside it, so that they never cover the detail and its actions; else the default
 * corner (null). Measured, as the list's width follows the window: on each navigation, resize
 * and change of the toasts shown (`shown`), so a screen whose code came late is still seen.
 */
function useDock(location: string, shown: string): CSSProperties | null {
  const [dock, setDock] = useState<CSSProperties | null>(null);
  useLayoutEffect(() => {
    const measure = () => {
      const master = document.querySelector('.order-layout > .master');
      const detail = document.querySelector('.order-layout > .detail');
      const a = master?.getBoundingClientRect();
      const b = detail?.getBoundingClientRect();
      // Side by side only: in one column (a small window) nothing is beside the detail.
      const next =
        a && b && a.right <= b.left
          ? { left: Math.round(a.left), right: 'auto', width: Math.round(a.width) }
          : null;
      setDock((d) =>
        d?.left === next?.left && d?.width === next?.width && (d === null) === (next === null)
          ? d
          : next,
      );
    };
    measure();
    // The screen's code may still be loading: look again once it has drawn.
    const later = window.setTimeout(measure, 250);
    window.addEventListener('resize', measure);
    return () => {
      window.clearTimeout(later);
      window.removeEventListener('resize', measure);
    };
  }, [location, shown]);
  return dock;
}

/**
 * Notifications in one labelled region: errors are alerts, the rest polite status messages. The
 * newest few show; the others are counted, with a way to the history.
 */
export function Toasts() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  const showHistory = useToastStore((s) => s.showHistory);
  const markRead = useToastStore((s) => s.markRead);
  const [location] = useLocation();
  const shown = toasts.slice(-TOASTS_SHOWN);
  const dock = useDock(location, shown.map((t) => t.id).join());
  const more = toasts.length - shown.length;
  return (
    <section className="toasts" aria-label="Notifications" style={dock ?? undefined}>
      {more > 0 && (
        <button
          type="button"
          className="button button-small toasts-more"
          onClick={() => showHistory(true)}
        >
          +{more} more
          <span className="visually-hidden"> notifications: open the history</span>
        </button>
      )}
      {shown.map((t) => {
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
