import { useId, useState, type ReactNode } from 'react';

/**
 * A card with one figure: its chart for the eye and, behind it, the same figures as a table with
 * a caption, which screen readers and keyboards read (the chart is aria-hidden). "Show as table"
 * shows the table in place of the chart.
 */
export function ChartCard({
  title,
  lead,
  chart,
  table,
  tableAlwaysShown = false,
}: {
  title: string;
  lead?: ReactNode;
  chart: ReactNode;
  /** A <table> with its <caption>. */
  table: ReactNode;
  /** The table is the way in by keyboard (the refill days): always shown, under the chart. */
  tableAlwaysShown?: boolean;
}) {
  const headingId = useId();
  const [asTable, setAsTable] = useState(false);
  const tableShown = tableAlwaysShown || asTable;
  return (
    <section className="card dashboard-card" aria-labelledby={headingId}>
      <div className="dashboard-card-head">
        <h2 id={headingId}>{title}</h2>
        {!tableAlwaysShown && (
          <button
            type="button"
            className="button button-small"
            aria-pressed={asTable}
            onClick={() => setAsTable((v) => !v)}
          >
            Show as table
          </button>
        )}
      </div>
      {lead}
      {!asTable && chart}
      <div className={tableShown ? 'dashboard-table' : 'visually-hidden'}>{table}</div>
    </section>
  );
}
