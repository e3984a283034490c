import type { IpcError } from '@shared/ipc';
import { describeError } from '../lib/ipc';

/**
 * A page of a list that could not be read while scrolling (or re-read after a change): the rows
 * already shown stay, and this says so, with a way to try again.
 */
export function PageError({
  error,
  what,
  onRetry,
}: {
  error: IpcError | null;
  /** What could not be read: "Some orders could not be loaded." */
  what: string;
  onRetry: () => void;
}) {
  if (!error) return null;
  const { title, detail } = describeError(error);
  return (
    <div className="notice notice-error list-page-error" role="alert">
      <p className="notice-title">
        {what} {title}
      </p>
      {detail && <p>{detail}</p>}
      <p>
        <button type="button" className="button button-small" onClick={onRetry}>
          Try again
        </button>
      </p>
    </div>
  );
}

/** A row whose page is not read yet: a skeleton, and words for a screen reader. */
export function SkeletonRow({ label }: { label: string }) {
  return (
    <span className="row-link row-pending">
      <span className="row-main">
        <span className="skeleton skeleton-wide" />
        <span className="skeleton skeleton-narrow" />
      </span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
