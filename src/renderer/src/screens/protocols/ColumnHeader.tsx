import { memo, type Ref, type UIEvent } from 'react';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { DEFAULT_SORT, useProtocolsStore } from '@renderer/stores/protocols-store';
import { COLUMNS, DIRECTION_WORDS, cellClass } from './protocol-columns';

/**
 * The names of the list's columns above the rows, in the rows' layout; each is a button that sorts
 * by its column, then the other way, then back to the last change first. The sort in force is marked (aria-pressed, an arrow, and
 * its direction in the button's name); the rows are a list of links, not a table, so each row's cell says
 * its column's name to screen readers itself.
 */
export const ColumnHeader = memo(function ColumnHeader({
  ref,
  onScroll,
}: {
  ref: Ref<HTMLDivElement>;
  /** The header scrolled sideways by itself (a button focused by Tab out of view). */
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
}) {
  const sort = useProtocolsStore((s) => s.sort);
  const direction = useProtocolsStore((s) => s.direction);
  const setSort = useProtocolsStore((s) => s.setSort);
  return (
    <div
      ref={ref}
      className="protocol-row protocol-header"
      role="group"
      aria-label="Sort protocols by"
      onScroll={onScroll}
    >
      <span className="protocol-header-check" />
      {COLUMNS.map((c) => {
        const active = sort === c.sort;
        const current = active ? (direction ?? c.direction) : null;
        // Usual direction, the other way, then back to the list's default order (the last change
        // first), which a Changed column the chooser hid could not otherwise give back.
        const back = current !== null && current !== c.direction && c.sort !== DEFAULT_SORT;
        const next = current === null || back ? c.direction : current === 'asc' ? 'desc' : 'asc';
        const Arrow = current === 'desc' ? ArrowDown : ArrowUp;
        return (
          <span key={c.key} className={cellClass(c.key)}>
            <button
              type="button"
              className={`protocol-sort-button${active ? ' is-active' : ''}`}
              aria-pressed={active}
              aria-label={current ? `${c.label}, sorted ${DIRECTION_WORDS[current]}` : c.label}
              title={
                back
                  ? 'Back to the last change first'
                  : `Sort by ${c.label.toLowerCase()}, ${DIRECTION_WORDS[next]}`
              }
              onClick={() =>
                back ? setSort(DEFAULT_SORT) : setSort(c.sort, next === c.direction ? null : next)
              }
            >
              {c.label}
              {current && <Arrow aria-hidden="true" size={13} />}
            </button>
          </span>
        );
      })}
    </div>
  );
});
