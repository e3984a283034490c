import type { ItemFilter } from '@renderer/stores/batch-progress';

const CHOICES: { value: ItemFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'attention', label: 'Needs a look' },
  { value: 'created', label: 'Created' },
];

/** Which of the batch's orders the list shows. */
export function ItemFilterChoice({
  value,
  onChange,
  counts,
}: {
  value: ItemFilter;
  onChange(filter: ItemFilter): void;
  counts: Record<ItemFilter, number>;
}) {
  return (
    <fieldset className="segmented segmented-small">
      <legend className="visually-hidden">Show</legend>
      {CHOICES.map((c) => (
        <label key={c.value} className="segment">
          <input
            type="radio"
            name="batch-item-filter"
            value={c.value}
            checked={value === c.value}
            onChange={() => onChange(c.value)}
          />
          <span>
            {c.label} ({counts[c.value]})
          </span>
        </label>
      ))}
    </fieldset>
  );
}
