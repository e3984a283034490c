import { memo, type MouseEvent } from 'react';
import { Link } from 'wouter';
import type { ProtocolSummaryView } from '@shared/protocol-views';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { formatRecent } from '@renderer/lib/dates';
import { SyncBadges, badgesOf } from './SyncBadges';

export const ROW_HEIGHT = 62;
export const ROW_WITH_MESSAGE = 80;

/** A row's height: taller when one of its badges carries a message shown under it. */
export const rowHeight = (p: ProtocolSummaryView | undefined) =>
  p && badgesOf(p).some((b) => b.message) ? ROW_WITH_MESSAGE : ROW_HEIGHT;

/**
 * One protocol of the list: its checkbox for the batch, the link to its editor, its sync badges.
 * Memoised: a keystroke that only marks the list busy, or a page read elsewhere in the list,
 * renders no row again.
 */
export const ProtocolRow = memo(function ProtocolRow({
  p,
  index,
  total,
  start,
  height,
  selected,
  tabbable,
  onToggle,
  onLinkClick,
}: {
  p: ProtocolSummaryView;
  index: number;
  total: number;
  start: number;
  height: number;
  selected: boolean;
  /** The one row in the Tab order (roving tabindex). */
  tabbable: boolean;
  onToggle: (localId: string, range: boolean) => void;
  onLinkClick: (event: MouseEvent<HTMLAnchorElement>, p: ProtocolSummaryView) => void;
}) {
  const badges = badgesOf(p);
  const message = badges.find((b) => b.message)?.message ?? null;
  const badgesId = `protocol-row-${index}-state`;
  return (
    <VirtualRow
      index={index}
      total={total}
      start={start}
      height={height}
      className={`list-row protocol-row${selected ? ' is-selected' : ''}${message ? ' has-message' : ''}`}
    >
      <input
        type="checkbox"
        className="protocol-check"
        data-row-control="select"
        tabIndex={tabbable ? 0 : -1}
        checked={selected}
        aria-label={`Select ${p.customerName} (${p.sourceId})`}
        onChange={(event) =>
          onToggle(p.localId, (event.nativeEvent as globalThis.MouseEvent).shiftKey)
        }
      />
      <Link
        href={`/protocols/${p.localId}`}
        className="protocol-link"
        data-row-control="open"
        tabIndex={tabbable ? 0 : -1}
        aria-describedby={badges.length > 0 ? badgesId : undefined}
        onClickCapture={(event: MouseEvent<HTMLAnchorElement>) => onLinkClick(event, p)}
      >
        <span className="row-main">
          <span className="row-title">{p.customerName}</span>
          <span className="row-meta muted">
            {p.sourceId}
            {p.email ? ` · ${p.email}` : ''}
          </span>
        </span>
        <span className="protocol-changed muted">Changed {formatRecent(p.localUpdatedAt)}</span>
      </Link>
      <SyncBadges id={badgesId} badges={badges} tabbable={tabbable} />
      {message && (
        <span className="protocol-message" aria-hidden="true" title={message}>
          {message}
        </span>
      )}
    </VirtualRow>
  );
});
