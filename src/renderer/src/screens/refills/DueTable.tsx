import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import type { RefillView } from '@shared/work-views';
import { formatDate } from '@renderer/lib/dates';
import { plural } from '@renderer/lib/format';
import { daysLeftText } from '@renderer/lib/refills-format';
import { ProtocolCells, RefillTable } from './RefillTable';

/** The protocols whose last order runs out within the chosen days, soonest first. */
export function DueTable({
  due,
  withinDays,
  selected,
  onToggle,
}: {
  due: readonly RefillView[];
  withinDays: number;
  selected: ReadonlySet<string>;
  onToggle: (ids: readonly string[], chosen: boolean) => void;
}) {
  return (
    <RefillTable
      caption={`Protocols whose supply runs out within ${withinDays} ${withinDays === 1 ? 'day' : 'days'}, soonest first`}
      selectAllLabel="Select all due protocols"
      ids={due.map((r) => r.protocol.localId)}
      headers={
        <>
          <th scope="col">Last order</th>
          <th scope="col">Ordered on</th>
          <th scope="col" className="num">
            Supply
          </th>
          <th scope="col">Runs out on</th>
          <th scope="col">Days left</th>
          <th scope="col">Refill due</th>
        </>
      }
      selected={selected}
      onToggle={onToggle}
    >
      {due.map((r) => {
        const overdue = r.daysLeft < 0;
        const p = r.protocol;
        return (
          <tr key={p.localId} className={overdue ? 'refills-overdue' : undefined}>
            <ProtocolCells protocol={p} selected={selected} onToggle={onToggle} />
            <td>
              <Link
                href={`/orders/${encodeURIComponent(r.lastOrderId)}`}
                className="code"
                aria-label={`Order ${r.lastOrderId}`}
              >
                {r.lastOrderId}
              </Link>
            </td>
            <td>{formatDate(r.lastOrderedAt)}</td>
            <td className="num">{r.daysSupply} days</td>
            <td>{formatDate(r.runsOutAt)}</td>
            <td className="refills-days-left">
              {overdue && (
                <span className="badge refills-overdue-badge">
                  <AlertTriangle aria-hidden="true" size={13} />
                  Overdue
                </span>
              )}
              <span className={overdue ? 'refills-overdue-text' : undefined}>
                {overdue ? ' ' : ''}
                {daysLeftText(r.daysLeft)}
              </span>
            </td>
            <td>{r.daysEarly === 0 ? 'Now' : `In ${plural(r.daysEarly, 'day')}`}</td>
          </tr>
        );
      })}
    </RefillTable>
  );
}
