import { useEffect, useRef } from 'react';

/** A header checkbox for a section: checked when all are chosen, mixed when some are. */
export function SelectAllCheckbox({
  label,
  ids,
  selected,
  onToggle,
}: {
  label: string;
  ids: readonly string[];
  selected: ReadonlySet<string>;
  onToggle: (ids: readonly string[], chosen: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const count = ids.filter((id) => selected.has(id)).length;
  const all = ids.length > 0 && count === ids.length;
  const some = count > 0 && !all;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={all}
      disabled={ids.length === 0}
      onChange={() => onToggle(ids, !all)}
    />
  );
}
