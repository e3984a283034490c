import { useId, useState } from 'react';
import type { ConflictChoice, ConflictView } from '@shared/protocol-views';
import type { IpcError } from '@shared/ipc';
import { formatMoment } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { describeError } from '@renderer/lib/ipc';
import { choicesOf, KIND_TITLES, overwriteWarning, type OverwriteWarning } from './choices';
import { compareConflict, countDifferences, customerName } from './conflict-rows';

interface ConflictCardProps {
  conflict: ConflictView;
  productName: (id: number) => string;
  /** Hide the fields both versions agree on (when both exist). */
  onlyDifferences: boolean;
  /** Resolves the conflict; answers the failure, or null when it was resolved. */
  onResolve(choice: ConflictChoice): Promise<IpcError | null>;
}

const Deleted = ({ where }: { where: string }) => <span className="conflict-deleted">{where}</span>;

/** One conflict: mine and theirs side by side, field by field, and the choices. */
export function ConflictCard({
  conflict,
  productName,
  onlyDifferences,
  onResolve,
}: ConflictCardProps) {
  const headingId = useId();
  const [busy, setBusy] = useState<ConflictChoice | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  /** "Keep mine" waiting for the user to confirm what it overwrites on the server. */
  const [confirming, setConfirming] = useState<OverwriteWarning | null>(null);
  const compared = compareConflict(conflict, productName);
  const differences = countDifferences(compared);
  const bothSides = conflict.mine !== null && conflict.theirs !== null;
  const sections =
    onlyDifferences && bothSides
      ? compared
          .map((s) => ({ ...s, rows: s.rows.filter((r) => r.differs) }))
          .filter((s) => s.rows.length > 0)
      : compared;
  const name = customerName(conflict.mine) ?? customerName(conflict.theirs) ?? 'Protocol';
  const choices = choicesOf(conflict);

  const choose = async (choice: ConflictChoice) => {
    setBusy(choice);
    setError(null);
    const failure = await onResolve(choice);
    setBusy(null);
    setError(failure);
  };

  const ask = (choice: ConflictChoice) => {
    const differing = compared.flatMap((s) => s.rows.filter((r) => r.differs));
    const warning = overwriteWarning(conflict, choice, name, differing);
    if (warning) setConfirming(warning);
    else void choose(choice);
  };

  const failure = error ? describeError(error) : null;
  return (
    <section className="card conflict-card" aria-labelledby={headingId}>
      <div className="conflict-head">
        <h2 id={headingId}>{name}</h2>
        <span className="badge badge-conflict">{KIND_TITLES[conflict.kind]}</span>
      </div>
      <p className="muted conflict-meta">
        Found {formatMoment(conflict.detectedAt)}
        {conflict.mine && conflict.theirs
          ? ` · ${differences === 0 ? 'no field differs' : `${plural(differences, 'field')} differ${differences === 1 ? 's' : ''}`}`
          : ''}
      </p>
      {bothSides && (
        <p className="muted conflict-meta">
          The version both sides started from is not kept, so who changed a field cannot be told: a
          field marked “differs” has one value here (mine) and another on the server (theirs).
        </p>
      )}
      <div className="conflict-table-wrap">
        <table className="table conflict-table">
          <caption className="visually-hidden">
            {name}: your version and the server&apos;s, field by field
          </caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Mine (this app)</th>
              <th scope="col">Theirs (server)</th>
            </tr>
          </thead>
          {sections.map((section) => (
            <tbody key={section.title}>
              <tr className="conflict-section">
                <th scope="colgroup" colSpan={3}>
                  {section.title}
                </th>
              </tr>
              {section.rows.length === 0 && (
                <tr>
                  <td colSpan={3} className="muted">
                    None
                  </td>
                </tr>
              )}
              {section.rows.map((row) => (
                <tr
                  key={row.key}
                  className={row.differs ? 'conflict-differs' : undefined}
                  data-differs={row.differs || undefined}
                >
                  <th scope="row">
                    {row.label}
                    {row.differs && <span className="conflict-differs-tag"> (differs)</span>}
                  </th>
                  <td>
                    {row.differs && <span className="conflict-side">Mine: </span>}
                    {row.mine ?? <Deleted where="Deleted here" />}
                  </td>
                  <td>
                    {row.differs && <span className="conflict-side">Theirs: </span>}
                    {row.theirs ?? <Deleted where="Deleted on the server" />}
                  </td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
      <div className="conflict-choices" role="group" aria-label={`Resolve the conflict of ${name}`}>
        {choices.map(({ choice, text }) => (
          <div key={choice} className="conflict-choice">
            <button
              type="button"
              className={`button ${choice === 'keep-mine' ? 'button-primary' : ''}`}
              disabled={busy !== null}
              aria-busy={busy === choice}
              aria-describedby={`${headingId}-${choice}`}
              onClick={() => ask(choice)}
            >
              {text.label}
            </button>
            <span id={`${headingId}-${choice}`} className="muted">
              {text.effect}
            </span>
          </div>
        ))}
      </div>
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.title ?? ''}
        confirmLabel={confirming?.confirmLabel ?? ''}
        onConfirm={() => {
          setConfirming(null);
          void choose('keep-mine');
        }}
        onCancel={() => setConfirming(null)}
      >
        <p>{confirming?.lead}</p>
        {confirming && confirming.fields.length > 0 && (
          <ul className="conflict-overwrites">
            {confirming.fields.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        )}
      </ConfirmDialog>
      {failure && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">This conflict could not be resolved. {failure.title}</p>
          {failure.detail && <p>{failure.detail}</p>}
        </div>
      )}
    </section>
  );
}
