import type { ReviewItemView } from '@shared/work-views';
import { formatMoney } from '@renderer/lib/format';
import { RepeatedOrders } from '@renderer/components/RepeatedOrders';

interface Props {
  items: ReviewItemView[];
  /** Every item of the review, to name the earlier protocol a twin repeats. */
  all: readonly ReviewItemView[];
  included: ReadonlySet<string>;
  onToggle(localId: string, include: boolean): void;
  /** Includes every one (a deliberate reorder of them all). */
  onIncludeAll(): void;
}

/**
 * Protocols whose patient already has an order of the same content within its supply (another
 * desk's included), or that repeat another protocol of the review: not sent unless the user
 * includes each one.
 */
export function HeldList({ items, all, included, onToggle, onIncludeAll }: Props) {
  const nameOf = (localId: string) => {
    const item = all.find((i) => i.localId === localId);
    return item ? item.customerName || item.sourceId : 'another protocol';
  };
  return (
    <section className="card review-held" aria-labelledby="held-heading">
      <h2 id="held-heading">Possible duplicates</h2>
      <p className="muted">
        These patients already have an order with the same products and doses within its supply, or
        appear twice in this batch. They are not sent unless you include them.
      </p>
      {items.length > 1 && (
        <button
          type="button"
          className="button button-small"
          disabled={items.every((i) => included.has(i.localId))}
          onClick={onIncludeAll}
        >
          Include all {items.length}
        </button>
      )}
      <ul className="left-out-list">
        {items.map((item) => {
          const name = item.customerName || item.sourceId;
          const checkboxId = `include-${item.localId}`;
          return (
            <li key={item.localId} className="left-out-item">
              <div className="left-out-who">
                <span className="batch-item-name">{name}</span>
                <span className="muted code">{item.sourceId}</span>
              </div>
              <div className="held-why">
                {item.repeats.length > 0 && (
                  <RepeatedOrders orders={item.repeats} label={`Orders ${name} already has`} />
                )}
                {item.sameAs && (
                  <p className="muted">
                    Same order as {nameOf(item.sameAs)}, earlier in this batch.
                  </p>
                )}
              </div>
              <label className="held-include" htmlFor={checkboxId}>
                <input
                  id={checkboxId}
                  type="checkbox"
                  checked={included.has(item.localId)}
                  onChange={(e) => onToggle(item.localId, e.target.checked)}
                />
                Order again anyway
                {item.estimatedTotal && (
                  <span className="muted"> ({formatMoney(item.estimatedTotal)})</span>
                )}
              </label>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
