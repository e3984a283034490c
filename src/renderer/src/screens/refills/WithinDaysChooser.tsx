import { useCallback, useState } from 'react';
import { Field } from '@renderer/components/Field';
import { useDebounced } from '@renderer/lib/use-debounced';
import { parseWithinDays, WITHIN_DAYS_PRESETS } from './within-days';

/** How long the typed number must stay the same before the list is asked for. */
const TYPING_PAUSE_MS = 350;

/**
 * How many days ahead to look: one of the presets, or any whole number from 0 to 365 typed in.
 * A number that is not allowed is said on the field and the list stays as it was.
 */
export function WithinDaysChooser({
  value,
  onChange,
}: {
  value: number;
  onChange: (withinDays: number) => void;
}) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);

  const applyTyped = useCallback(
    (typed: string) => {
      const parsed = parseWithinDays(typed);
      if (!parsed.ok) {
        setError(parsed.message);
        return;
      }
      setError(null);
      if (parsed.value !== value) onChange(parsed.value);
    },
    [onChange, value],
  );
  useDebounced(text, TYPING_PAUSE_MS, applyTyped);

  const choosePreset = (days: number) => {
    setText(String(days));
    setError(null);
    onChange(days);
  };

  return (
    <div className="refills-days">
      <fieldset className="chips refills-presets">
        <legend className="field-label">Due within</legend>
        {WITHIN_DAYS_PRESETS.map((days) => (
          <label key={days} className="chip">
            <input
              type="radio"
              name="refills-within"
              checked={!error && value === days && text.trim() === String(days)}
              onChange={() => choosePreset(days)}
            />
            {days} days
          </label>
        ))}
      </fieldset>
      <Field
        label="Days ahead"
        type="number"
        inputMode="numeric"
        min={0}
        max={365}
        step={1}
        className="refills-days-field"
        value={text}
        error={error ?? undefined}
        hint="0 to 365; 0 lists only what has already run out."
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') applyTyped(event.currentTarget.value);
        }}
      />
    </div>
  );
}
