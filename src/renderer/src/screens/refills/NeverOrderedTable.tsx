import { Link } from 'wouter';
import type { ProtocolSummaryView } from '../../../../shared/protocol-views';
import { SelectAllCheckbox } from './SelectAllCheckbox';

/** Protocols whose patient has no order this app knows of: nothing says when they are due. */
export function NeverOrderedTable({
  protocols,
  selected,
  onToggle,
}: {
  protocols: readonly ProtocolSummaryView[];
  selected: ReadonlySet<string>;
  onToggle: (ids: readonly string[], chosen: boolean) => void;
}) {
  const ids = protocols.map((p) => p.localId);
  return (
    <div className="refills-table-wrap">
      <table className="table refills-table">
        <caption className="visually-hidden">Protocols never ordered</caption>
        <thead>
          <tr>
            <th scope="col" className="refills-check">
              <SelectAllCheckbox
                label="Select all never-ordered protocols"
                ids={ids}
                selected={selected}
                onToggle={onToggle}
              />
            </th>
            <th scope="col">Patient</th>
            <th scope="col">Source ID</th>
            <th scope="col">Email</th>
          </tr>
        </thead>
        <tbody>
          {protocols.map((p) => (
            <tr key={p.localId}>
              <td className="refills-check">
                <input
                  type="checkbox"
                  aria-label={`Select ${p.customerName} (${p.sourceId})`}
                  checked={selected.has(p.localId)}
                  onChange={(event) => onToggle([p.localId], event.target.checked)}
                />
              </td>
              <th scope="row">
                <Link href={`/protocols/${encodeURIComponent(p.localId)}`}>{p.customerName}</Link>
              </th>
              <td className="code">{p.sourceId}</td>
              <td>{p.email ?? <span className="muted">None</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
