import { useVirtualizer } from '@tanstack/react-virtual';
import { AlertTriangle } from 'lucide-react';
import { useRef } from 'react';
import type { ReviewItemView } from '../../../../shared/work-views';
import { formatMoney } from '../../lib/format';

const ESTIMATED_ROW = 52;

/** The protocols that will be sent, virtualised (a batch may hold thousands). */
export function ReviewList({ items, exact }: { items: ReviewItemView[]; exact: boolean }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => items[index]?.localId ?? index,
    overscan: 6,
  });
  return (
    <section className="card review-included" aria-labelledby="included-heading">
      <h2 id="included-heading">Orders to send</h2>
      <div ref={scroller} className="batch-item-scroller" tabIndex={-1}>
        <ul
          aria-label="Orders to send"
          className="batch-item-list"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            if (!item) return null;
            return (
              <li
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                aria-setsize={items.length}
                aria-posinset={row.index + 1}
                className="batch-item"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <div className="review-row">
                  <span className="batch-item-who">
                    <span className="batch-item-name">{item.customerName || item.sourceId}</span>
                    <span className="muted code">{item.sourceId}</span>
                  </span>
                  <span className="review-warnings">
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
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
