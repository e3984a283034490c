import { memo, type MouseEvent } from 'react';
import { Link } from 'wouter';
import type { ProtocolRowView, ProtocolSummaryView } from '@shared/protocol-views';
import { VirtualRow } from '@renderer/components/VirtualRow';
import { formatDate, formatRecent } from '@renderer/lib/dates';
import { formatCount, plural } from '@renderer/lib/format';
import { orderStatusLabel } from '@renderer/lib/order-filters';
import { daysLeftText } from '@renderer/lib/refills-format';
import { COLUMN_LABELS, cellClass } from './protocol-columns';
import { SyncBadges, badgesOf } from './SyncBadges';

export const ROW_HEIGHT = 62;
export const ROW_WITH_MESSAGE = 80;
/** How many products a row names before "+N". */
const NAMED = 2;

/** A row's height: taller when one of its badges carries a message shown under it. */
export const rowHeight = (p: ProtocolSummaryView | undefined) =>
  p && badgesOf(p).some((b) => b.message) ? ROW_WITH_MESSAGE : ROW_HEIGHT;

/** Its column's name, said before a cell's value to screen readers (the header is buttons). */
const Said = ({ column }: { column: keyof typeof COLUMN_LABELS }) => (
  <span className="visually-hidden">{COLUMN_LABELS[column]}: </span>
);

/** The next refill's second line, as Refills due and the patient view say it: "12 days left". */
const leftText = (daysLeft: number | null): string | null =>
  daysLeft === null ? null : `${daysLeftText(daysLeft)}${daysLeft > 0 ? ' left' : ''}`;

/**
 * One protocol of the list: its checkbox for the batch, the link to its editor (the patient's
 * cell, whose area covers the row), its columns and its sync badges, in the header's columns
 * (protocol-columns.ts). Every cell is rendered; the columns hidden are hidden by the list's
 * styles, so choosing columns renders no row again. Plain elements and strings: a keystroke puts
 * some 30 new rows on screen within one frame. Memoised: a keystroke that only marks the list
 * busy, or a page read elsewhere in the list, renders no row again.
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
  p: ProtocolRowView;
  index: number;
  total: number;
  start: number;
  height: number;
  selected: boolean;
  /** The one row in the Tab order (roving tabindex). */
  tabbable: boolean;
  onToggle: (localId: string, range: boolean) => void;
  onLinkClick: (event: MouseEvent<HTMLAnchorElement>, p: ProtocolRowView) => void;
}) {
  const badges = badgesOf(p);
  const message = badges.find((b) => b.message)?.message ?? null;
  const badgesId = `protocol-row-${index}-state`;
  const { products, daysSupply, shipping, lastOrder } = p.columns;
  const more = products.length - NAMED;
  const left = leftText(lastOrder?.daysLeft ?? null);
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
        className={`${cellClass('patient')} protocol-link`}
        data-row-control="open"
        tabIndex={tabbable ? 0 : -1}
        aria-describedby={badges.length > 0 ? badgesId : undefined}
        onClickCapture={(event: MouseEvent<HTMLAnchorElement>) => onLinkClick(event, p)}
      >
        <span className="row-title">{p.customerName}</span>
        <span className="row-meta muted">
          {p.sourceId}
          {p.email ? ` · ${p.email}` : ''}
        </span>
      </Link>
      <span className={cellClass('products')} title={products.join('\n')}>
        <Said column="products" />
        <span className="protocol-cell-line">
          {products.length === 0 ? 'No products' : products.slice(0, NAMED).join(', ')}
        </span>
        {more > 0 && <span className="protocol-more">+{formatCount(more)} more</span>}
      </span>
      <span className={cellClass('supply')}>
        <Said column="supply" />
        {daysSupply === null ? 'Not set' : plural(daysSupply, 'day')}
      </span>
      <span className={cellClass('shipping')}>
        <Said column="shipping" />
        <span className="protocol-cell-line">{shipping ?? 'Not set'}</span>
      </span>
      <span className={cellClass('lastOrder')}>
        <Said column="lastOrder" />
        {lastOrder ? (
          <>
            <span className="protocol-cell-line">{formatDate(lastOrder.createdAt)}</span>
            <span className="protocol-cell-line muted">{orderStatusLabel(lastOrder.status)}</span>
          </>
        ) : p.columns.cancelledAt !== null ? (
          // An order was placed, though none stands: as the Patients screen says it.
          <>
            <span className="protocol-cell-line">{formatDate(p.columns.cancelledAt)}</span>
            <span className="protocol-cell-line muted">Cancelled</span>
          </>
        ) : (
          <span className="muted">Never ordered</span>
        )}
      </span>
      <span className={cellClass('nextRefill')}>
        <Said column="nextRefill" />
        {lastOrder?.runsOutAt != null ? (
          <>
            <span className="protocol-cell-line">{formatDate(lastOrder.runsOutAt)}</span>
            <span
              className={`protocol-cell-line${lastOrder.daysLeft !== null && lastOrder.daysLeft < 0 ? ' protocol-ran-out' : ' muted'}`}
            >
              {left}
            </span>
          </>
        ) : (
          <span className="muted">None due</span>
        )}
      </span>
      <span className={cellClass('changed')}>
        <Said column="changed" />
        <span className="muted">{formatRecent(p.localUpdatedAt)}</span>
      </span>
      <span className={cellClass('sync')}>
        {badges.length === 0 ? (
          <span className="muted">
            <Said column="sync" />
            Synced
          </span>
        ) : (
          <SyncBadges id={badgesId} badges={badges} tabbable={tabbable} />
        )}
      </span>
      {message && (
        <span className="protocol-message" aria-hidden="true" title={message}>
          {message}
        </span>
      )}
    </VirtualRow>
  );
});
