import { AlertTriangle } from 'lucide-react';
import type { ReviewItemView } from '@shared/work-views';
import { formatMoney } from '@renderer/lib/format';
import { VirtualRows } from './VirtualRows';

/** The protocols that will be sent, virtualised (a batch may hold thousands). */
export function ReviewList({ items, exact }: { items: ReviewItemView[]; exact: boolean }) {
  return (
    <section className="card review-included" aria-labelledby="included-heading">
      <h2 id="included-heading">Orders to send</h2>
      <VirtualRows
        items={items}
        label="Orders to send"
        estimatedRow={52}
        keyOf={(item) => item.localId}
        renderRow={(item) => (
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
        )}
      />
    </section>
  );
}
