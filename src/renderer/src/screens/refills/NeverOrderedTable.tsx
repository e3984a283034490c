import type { ProtocolSummaryView } from '@shared/protocol-views';
import { ProtocolCells, RefillTable } from './RefillTable';

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
  return (
    <RefillTable
      caption="Protocols not ordered as they stand"
      selectAllLabel="Select all protocols not ordered yet"
      ids={protocols.map((p) => p.localId)}
      headers={<th scope="col">Email</th>}
      selected={selected}
      onToggle={onToggle}
    >
      {protocols.map((p) => (
        <tr key={p.localId}>
          <ProtocolCells protocol={p} selected={selected} onToggle={onToggle} />
          <td>{p.email ?? <span className="muted">None</span>}</td>
        </tr>
      ))}
    </RefillTable>
  );
}
