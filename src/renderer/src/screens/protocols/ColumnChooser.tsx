import { memo, useEffect, useRef, type KeyboardEvent } from 'react';
import { Columns3 } from 'lucide-react';
import { ProtocolColumn } from '@shared/protocol-views';
import { useAppStore } from '@renderer/stores/app-store';
import { COLUMN_LABELS } from './protocol-columns';

/**
 * Which of the list's columns show (the patient's always does), remembered on this desk across
 * restarts (app.setProtocolColumns). A disclosure of checkboxes: keyboard- and screen-reader-ready
 * as it is, and it stays open while several are changed; Escape or a click elsewhere closes it, as
 * a menu would (Escape gives the focus back to its button).
 */
export const ColumnChooser = memo(function ColumnChooser() {
  const shown = useAppStore((s) => s.protocolColumns);
  const setShown = useAppStore((s) => s.setProtocolColumns);
  const toggle = (column: ProtocolColumn) =>
    void setShown(shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column]);
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const closeOutside = (event: PointerEvent) => {
      const el = details.current;
      if (el?.open && !el.contains(event.target as Node)) el.open = false;
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDetailsElement>) => {
    const el = details.current;
    if (event.key !== 'Escape' || !el?.open) return;
    event.preventDefault();
    el.open = false;
    el.querySelector('summary')?.focus();
  };
  return (
    <details ref={details} className="column-chooser" onKeyDown={onKeyDown}>
      <summary className="button">
        <Columns3 aria-hidden="true" size={16} />
        Columns
      </summary>
      <fieldset className="column-chooser-panel">
        <legend className="visually-hidden">Columns shown</legend>
        {ProtocolColumn.options.map((column) => (
          <label key={column} className="column-chooser-option">
            <input
              type="checkbox"
              checked={shown.includes(column)}
              onChange={() => toggle(column)}
            />
            {COLUMN_LABELS[column]}
          </label>
        ))}
      </fieldset>
    </details>
  );
});
