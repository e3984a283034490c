import { Undo2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { ReviewItemView } from '@shared/work-views';
import { formatMoney } from '@renderer/lib/format';
import { reviewWho } from './ReviewList';

interface Props {
  items: ReviewItemView[];
  /** The one dropped last: its "Put back" takes the focus (its Drop button is gone). */
  lastDropped: string | null;
  onPutBack(localId: string): void;
}

/** Protocols the user dropped from this batch: not sent, kept as they are, and can be put back. */
export function DroppedList({ items, lastDropped, onPutBack }: Props) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (lastDropped) buttons.current.get(lastDropped)?.focus();
  }, [lastDropped]);
  return (
    <section className="card review-dropped" aria-labelledby="dropped-heading">
      <h2 id="dropped-heading">Dropped from this batch</h2>
      <p className="muted">
        These protocols are not sent with this batch. They stay as they are and can go in a later
        one.
      </p>
      <ul className="left-out-list">
        {items.map((item) => {
          const who = reviewWho(item);
          return (
            <li key={item.localId} className="left-out-item dropped-item">
              <div className="left-out-who">
                <span className="batch-item-name">{who}</span>
                {item.sourceId && <span className="muted code">{item.sourceId}</span>}
              </div>
              <span className="num review-estimate">
                {item.estimatedTotal ? formatMoney(item.estimatedTotal) : '—'}
              </span>
              <button
                type="button"
                className="button button-small"
                aria-label={`Put ${who} back in the batch`}
                ref={(el) => {
                  if (el) buttons.current.set(item.localId, el);
                  else buttons.current.delete(item.localId);
                }}
                onClick={() => onPutBack(item.localId)}
              >
                <Undo2 aria-hidden="true" size={14} />
                Put back
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
