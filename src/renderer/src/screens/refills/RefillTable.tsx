import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { SelectAllCheckbox } from './SelectAllCheckbox';

interface Selection {
  selected: ReadonlySet<string>;
  onToggle: (ids: readonly string[], chosen: boolean) => void;
}

/**
 * A refills table: a select-all box, the patient and source id columns every refill list has,
 * then the list's own columns (`headers`) and rows (`children`, each starting with ProtocolCells).
 */
export function RefillTable({
  caption,
  selectAllLabel,
  ids,
  headers,
  children,
  selected,
  onToggle,
}: Selection & {
  caption: ReactNode;
  selectAllLabel: string;
  ids: readonly string[];
  headers: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="refills-table-wrap">
      <table className="table refills-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="refills-check">
              <SelectAllCheckbox
                label={selectAllLabel}
                ids={ids}
                selected={selected}
                onToggle={onToggle}
              />
            </th>
            <th scope="col">Patient</th>
            <th scope="col">Patient ID</th>
            {headers}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The first cells of a refills row: its checkbox, the patient (a link to the protocol), the id. */
export function ProtocolCells({
  protocol,
  selected,
  onToggle,
}: Selection & { protocol: { localId: string; customerName: string; sourceId: string } }) {
  const p = protocol;
  return (
    <>
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
    </>
  );
}
