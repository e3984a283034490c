import { formatCount } from '@renderer/lib/format';
import { AlertTriangle } from 'lucide-react';
import type { CsvBadRow, CsvGoodRow } from '@shared/protocol-csv-views';
import { VirtualRows } from '../batches/VirtualRows';

/** The rows left out, each with its row number and every reason (virtualised: a file may be all bad). */
export function BadRows({ rows }: { rows: CsvBadRow[] }) {
  return (
    <section className="card import-rows import-bad" aria-labelledby="import-bad-heading">
      <h2 id="import-bad-heading">Rows with problems ({formatCount(rows.length)})</h2>
      <p className="muted">
        These rows are not imported. Fix them in the file and choose it again, or import the ready
        rows now and add these later.
      </p>
      <VirtualRows
        items={rows}
        label="Rows with problems"
        estimatedRow={64}
        keyOf={(r) => r.row}
        renderRow={(r) => (
          <div className="import-row">
            <span className="import-row-number">Row {r.row}</span>
            <div className="import-row-body">
              <span className="batch-item-name">{r.label ?? 'No patient given'}</span>
              <ul className="problem-list" aria-label={`Problems of row ${r.row}`}>
                {r.reasons.map((reason, i) => (
                  <li key={i}>
                    {reason.column ? <strong>{reason.column}</strong> : null}
                    {reason.column ? ': ' : 'The row '}
                    {reason.message}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        )}
      />
    </section>
  );
}

/** The rows that become protocols: who, what, and any warning. */
export function GoodRows({ rows }: { rows: CsvGoodRow[] }) {
  return (
    <section className="card import-rows import-good" aria-labelledby="import-good-heading">
      <h2 id="import-good-heading">Ready to import ({formatCount(rows.length)})</h2>
      <VirtualRows
        items={rows}
        label="Rows ready to import"
        estimatedRow={48}
        keyOf={(r) => r.row}
        renderRow={(r) => (
          <div className="import-row">
            <span className="import-row-number">Row {r.row}</span>
            <div className="import-row-body">
              <div className="import-row-who">
                <span className="batch-item-name">{r.patient}</span>
                <span className="muted code">{r.sourceId}</span>
                <span className="muted">{r.summary}</span>
              </div>
              {r.warnings.map((w) => (
                <p key={w} className="import-warning">
                  <AlertTriangle aria-hidden="true" size={14} />
                  {w}
                </p>
              ))}
            </div>
          </div>
        )}
      />
    </section>
  );
}
