import type { ReactNode } from 'react';

/**
 * One row of a virtualised list (@tanstack/react-virtual): placed where the virtualiser puts it,
 * and telling a screen reader its place in the whole list, most of which is not in the DOM.
 */
export function VirtualRow({
  index,
  total,
  start,
  height,
  className = 'list-row',
  children,
}: {
  index: number;
  total: number;
  start: number;
  height: number;
  className?: string;
  children: ReactNode;
}) {
  return (
    <li
      data-index={index}
      aria-setsize={total}
      aria-posinset={index + 1}
      className={className}
      style={{ transform: `translateY(${start}px)`, height }}
    >
      {children}
    </li>
  );
}
