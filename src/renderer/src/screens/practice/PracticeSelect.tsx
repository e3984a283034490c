import { useId } from 'react';

export interface PracticeOption<V extends string | number> {
  value: V;
  label: string;
}

/**
 * A labelled choice of a practice card; it answers the chosen option's own value (a number stays
 * a number). Given `empty`, it says so in place of the options while there are none, and is
 * disabled.
 */
export function PracticeSelect<V extends string | number>({
  label,
  value,
  options,
  empty,
  onChange,
}: {
  label: string;
  value: NoInfer<V> | '';
  options: readonly PracticeOption<V>[];
  empty?: string;
  onChange(value: NoInfer<V>): void;
}) {
  const id = useId();
  const none = empty !== undefined && options.length === 0;
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="input select"
        value={value}
        disabled={none}
        onChange={(event) => {
          const option = options.find((o) => String(o.value) === event.target.value);
          if (option) onChange(option.value);
        }}
      >
        {none && <option value="">{empty}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
