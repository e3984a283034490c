import { Link } from 'wouter';
import type { ProtocolSummaryView } from '@shared/protocol-views';

export interface Badge {
  kind: 'pending' | 'in-doubt' | 'conflict' | 'rejected';
  label: string;
  /** Said to screen readers with the badge, and shown on the row's last line. */
  message: string | null;
}

const OPS = { create: 'new protocol', update: 'changes', delete: 'delete' } as const;

/** What a row's badges say: its sync state and the state of its pending change, if any. */
export function badgesOf(p: ProtocolSummaryView): Badge[] {
  const badges: Badge[] = [];
  const change = p.change;
  if (p.syncState === 'conflict') {
    badges.push({
      kind: 'conflict',
      label: 'Conflict',
      message: change?.message ?? 'Changed here and on the server: choose which version to keep.',
    });
  }
  if (p.syncState === 'conflict') {
    // The refused change is the conflict itself: one badge says it.
  } else if (change?.state === 'rejected') {
    badges.push({
      kind: 'rejected',
      label: 'Rejected',
      message: change.message ?? `The server refused the ${OPS[change.op]}.`,
    });
  } else if (change?.state === 'in_doubt') {
    badges.push({
      kind: 'in-doubt',
      label: 'In doubt',
      message:
        change.message ??
        `Checking with the server whether the ${OPS[change.op]} arrived before sending again.`,
    });
  } else if (change && change.state !== 'done') {
    const retry = change.attempts > 0 && change.message ? change.message : null;
    badges.push({ kind: 'pending', label: 'Pending sync', message: retry });
  } else if (p.syncState === 'pending' && !badges.some((b) => b.kind === 'conflict')) {
    badges.push({ kind: 'pending', label: 'Pending sync', message: null });
  }
  return badges;
}

/** The row's badges; a conflict is a link to the conflicts view, where it is resolved. */
export function SyncBadges({
  id,
  badges,
  tabbable,
}: {
  id: string;
  badges: Badge[];
  tabbable: boolean;
}) {
  if (badges.length === 0) return null;
  return (
    <span className="protocol-badges" id={id}>
      {badges.map((b) => {
        // With a message, screen readers get "Label: message" in one piece.
        const text = b.message ? (
          <>
            <span aria-hidden="true">{b.label}</span>
            <span className="visually-hidden">
              {b.label}: {b.message}
            </span>
          </>
        ) : (
          b.label
        );
        return b.kind === 'conflict' ? (
          <Link
            key={b.kind}
            href="/conflicts"
            className="badge sync-badge sync-badge-conflict sync-badge-link"
            data-row-control="conflict"
            tabIndex={tabbable ? 0 : -1}
          >
            {text}
            <span className="visually-hidden"> (resolve)</span>
          </Link>
        ) : (
          <span key={b.kind} className={`badge sync-badge sync-badge-${b.kind}`}>
            {text}
          </span>
        );
      })}
    </span>
  );
}
