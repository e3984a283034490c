import { formatCount } from '@renderer/lib/format';
import { AlertTriangle } from 'lucide-react';
import type { CsvBadRow, CsvGoodRow, CsvPatientIdChoice } from '@shared/protocol-csv-views';
import { useProtocolImportStore } from '@renderer/stores/protocol-import-store';
import { VirtualRows } from '@renderer/components/VirtualRows';

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
              {r.patientIdClash && <PatientIdRow row={r} clash={r.patientIdClash} />}
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

/** The answers a flagged row takes, in words. */
export const patientIdAnswers = (
  clash: NonNullable<CsvGoodRow['patientIdClash']>,
): [CsvPatientIdChoice, string][] => [
  ['use-stored', `Same person: use ${clash.otherName}’s details`],
  ['update-everywhere', 'Same person: update the details everywhere'],
  ['new-id', `Another person: new ID ${clash.suggestedId}`],
];

/** A row whose Patient ID names another person: who, where, and the user's answer. */
function PatientIdRow({
  row,
  clash,
}: {
  row: CsvGoodRow;
  clash: NonNullable<CsvGoodRow['patientIdClash']>;
}) {
  const choice = useProtocolImportStore((s) => s.patientIds[String(row.row)] ?? '');
  const choose = useProtocolImportStore((s) => s.choosePatientId);
  const where = clash.otherRow === null ? 'in Order Desk' : `on row ${clash.otherRow}`;
  return (
    <div className="import-patient-id">
      <p className="import-warning">
        <AlertTriangle aria-hidden="true" size={14} />
        Patient ID {row.sourceId} already belongs to {clash.otherName} ({where}), not {row.patient}.
      </p>
      <select
        className="input"
        aria-label={`Row ${row.row}: is ${row.patient} the same person as ${clash.otherName}?`}
        value={choice}
        onChange={(e) =>
          choose(row.row, e.target.value === '' ? null : (e.target.value as CsvPatientIdChoice))
        }
      >
        <option value="">Choose: same person or new ID…</option>
        {patientIdAnswers(clash).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Every flagged row at once: how many, and one answer for all. */
export function PatientIdSummary({ rows }: { rows: CsvGoodRow[] }) {
  const flagged = rows.filter((r) => r.patientIdClash);
  const answered = useProtocolImportStore(
    (s) => flagged.filter((r) => s.patientIds[String(r.row)] !== undefined).length,
  );
  const chooseAll = useProtocolImportStore((s) => s.chooseAllPatientIds);
  if (flagged.length === 0) return null;
  return (
    <section className="card import-patient-ids" aria-labelledby="import-patient-ids-heading">
      <h2 id="import-patient-ids-heading">
        Patient IDs that belong to another name ({formatCount(flagged.length)})
      </h2>
      <p>
        One Patient ID is one person. For each row flagged below, say whether it is the same person
        (and whose details are right) or another person who gets a new ID.{' '}
        <strong>
          {answered} of {flagged.length} answered.
        </strong>
      </p>
      <div className="form-actions form-actions-start">
        <button type="button" className="button" onClick={() => chooseAll('use-stored')}>
          All: same person, stored details
        </button>
        <button type="button" className="button" onClick={() => chooseAll('update-everywhere')}>
          All: same person, update everywhere
        </button>
        <button type="button" className="button" onClick={() => chooseAll('new-id')}>
          All: new IDs
        </button>
      </div>
    </section>
  );
}
