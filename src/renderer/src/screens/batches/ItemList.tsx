import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { BatchItemView } from '../../../../shared/work-views';
import { ItemRow } from './ItemRow';

const ESTIMATED_ROW = 58;

/** The batch's orders, virtualised: a 1,000-item batch keeps only the rows in view in the DOM. */
export function ItemList({ items }: { items: BatchItemView[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW,
    getItemKey: (index) => items[index]?.seq ?? index,
    overscan: 6,
  });
  const rows = virtualizer.getVirtualItems();

  return (
    <div ref={scroller} className="batch-item-scroller" tabIndex={-1}>
      <ul
        aria-label="Orders of the batch"
        className="batch-item-list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {rows.map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <li
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              aria-setsize={items.length}
              aria-posinset={row.index + 1}
              className={`batch-item batch-item-${item.state}`}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <ItemRow item={item} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
