import { AlertTriangle, Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import type { IpcError } from '@shared/ipc';
import { describeError } from '../lib/ipc';

export function Loading({ label }: { label: string }) {
  return (
    <div className="state state-loading" role="status">
      <Loader2 aria-hidden="true" size={20} className="spin" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <p className="state-title">{title}</p>
      {children}
    </div>
  );
}

/** A failed load, in words, with a way to try again. */
export function Failed({
  what,
  error,
  onRetry,
}: {
  what: string;
  error: IpcError;
  onRetry?: () => void;
}) {
  const { title, detail } = describeError(error);
  return (
    <div className="state state-failed" role="alert">
      <AlertTriangle aria-hidden="true" size={20} />
      <div>
        <p className="state-title">
          {what} {title}
        </p>
        {detail && <p className="muted">{detail}</p>}
        {onRetry && (
          <button type="button" className="button" onClick={onRetry}>
            Try again
          </button>
        )}
      </div>
    </div>
  );
}
