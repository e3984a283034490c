import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

interface VirtualRowsProps<T> {
  items: readonly T[];
  /** The list's accessible name. */
  label: string;
  /** A row's height before it is measured, in px. */
  estimatedRow: number;
  keyOf(item: T): string | number;
  /** Extra classes of a row's list item (besides batch-item). */
  rowClass?(item: T): string;
  renderRow(item: T): ReactNode;
}

/**
 * A batch's rows, virtualised: a batch of thousands keeps only the rows in view in the DOM (the
 * review's protocols and the run view's orders).
 */
export function VirtualRows<T>({
  items,
  label,
  estimatedRow,
  keyOf,
  rowClass,
  renderRow,
}: VirtualRowsProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimatedRow,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : keyOf(item);
    },
    overscan: 6,
  });
  return (
    <div ref={scroller} className="batch-item-scroller" tabIndex={-1}>
      <ul
        aria-label={label}
        className="batch-item-list"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          const extra = rowClass?.(item);
          return (
            <li
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              aria-setsize={items.length}
              aria-posinset={row.index + 1}
              className={extra ? `batch-item ${extra}` : 'batch-item'}
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {renderRow(item)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
