import { memo } from 'react';
import { Columns3 } from 'lucide-react';
import { ProtocolColumn } from '@shared/protocol-views';
import { useAppStore } from '@renderer/stores/app-store';
import { COLUMN_LABELS } from './protocol-columns';

/**
 * Which of the list's columns show (the patient's always does), remembered on this desk across
 * restarts (app.setProtocolColumns). A disclosure of checkboxes: keyboard- and screen-reader-ready
 * as it is, and it stays open while several are changed.
 */
export const ColumnChooser = memo(function ColumnChooser() {
  const shown = useAppStore((s) => s.protocolColumns);
  const setShown = useAppStore((s) => s.setProtocolColumns);
  const toggle = (column: ProtocolColumn) =>
    void setShown(shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column]);
  return (
    <details className="column-chooser">
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
