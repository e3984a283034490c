import { AlertTriangle, ChevronDown, ChevronRight, X } from 'lucide-react';
import { useState } from 'react';
import type { ReviewItemView } from '@shared/work-views';
import { formatMoney, plural } from '@renderer/lib/format';
import { ReviewDetail } from './ReviewDetail';
import { VirtualRows } from '@renderer/components/VirtualRows';

interface Props {
  items: ReviewItemView[];
  exact: boolean;
  /** Takes a protocol out of this batch (the protocol itself is kept). */
  onDrop(localId: string): void;
}

export const reviewWho = (item: ReviewItemView): string =>
  item.customerName || item.sourceId || 'Unnamed protocol';

/**
 * The protocols that will be sent, virtualised (a batch may hold thousands); each row expands to
 * its products and price, and can be dropped from the batch.
 */
export function ReviewList({ items, exact, onDrop }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (localId: string) =>
    setExpanded((was) => {
      const next = new Set(was);
      if (!next.delete(localId)) next.add(localId);
      return next;
    });
  return (
    <section className="card review-included" aria-labelledby="included-heading">
      <h2 id="included-heading" tabIndex={-1}>
        Orders to send
      </h2>
      <VirtualRows
        items={items}
        label="Orders to send"
        estimatedRow={52}
        keyOf={(item) => item.localId}
        renderRow={(item) => {
          const who = reviewWho(item);
          const open = expanded.has(item.localId) && item.detail !== null;
          const detailId = `review-detail-${item.localId}`;
          return (
            <div className="review-row">
              <span className="batch-item-who review-who">
                <button
                  type="button"
                  className="review-expand"
                  aria-expanded={open}
                  aria-controls={open ? detailId : undefined}
                  disabled={item.detail === null}
                  onClick={() => toggle(item.localId)}
                >
                  {open ? (
                    <ChevronDown aria-hidden="true" size={16} />
                  ) : (
                    <ChevronRight aria-hidden="true" size={16} />
                  )}
                  <span className="visually-hidden">Products and price of </span>
                  <span className="batch-item-name" title={who}>
                    {who}
                  </span>
                </button>
                <span className="muted code review-source-id">{item.sourceId}</span>
              </span>

              <span className="review-warnings">
                {item.refill && (
                  <span className="muted review-refill">
                    {item.refill.daysEarly === 0
                      ? 'Refill due'
                      : `Refill ${plural(item.refill.daysEarly, 'day')} early`}
                  </span>
                )}
                {item.warnings.map((w) => (
                  <span key={w} className="review-warning">
                    <AlertTriangle aria-hidden="true" size={14} />
                    <span className="visually-hidden">Warning: </span>
                    {w}
                  </span>
                ))}
              </span>
              <span className="num review-estimate">
                {item.estimatedTotal ? formatMoney(item.estimatedTotal) : '—'}
                {!exact && <span className="visually-hidden"> (estimate)</span>}
              </span>
              <button
                type="button"
                className="button button-small"
                aria-label={`Drop ${who} from the batch`}
                onClick={() => onDrop(item.localId)}
              >
                <X aria-hidden="true" size={14} />
                Drop
              </button>
              {open && item.detail && (
                <ReviewDetail id={detailId} who={who} detail={item.detail} exact={exact} />
              )}
            </div>
          );
        }}
      />
    </section>
  );
}
