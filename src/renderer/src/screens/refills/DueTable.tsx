import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import type { RefillView } from '../../../../shared/work-views';
import { daysLeftText, formatDay } from './refills-format';
import { SelectAllCheckbox } from './SelectAllCheckbox';

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
  const ids = due.map((r) => r.protocol.localId);
  return (
    <div className="refills-table-wrap">
      <table className="table refills-table">
        <caption className="visually-hidden">
          Protocols whose supply runs out within {withinDays} {withinDays === 1 ? 'day' : 'days'},
          soonest first
        </caption>
        <thead>
          <tr>
            <th scope="col" className="refills-check">
              <SelectAllCheckbox
                label="Select all due protocols"
                ids={ids}
                selected={selected}
                onToggle={onToggle}
              />
            </th>
            <th scope="col">Patient</th>
            <th scope="col">Source ID</th>
            <th scope="col">Last order</th>
            <th scope="col">Ordered on</th>
            <th scope="col" className="num">
              Supply
            </th>
            <th scope="col">Runs out on</th>
            <th scope="col">Days left</th>
          </tr>
        </thead>
        <tbody>
          {due.map((r) => {
            const overdue = r.daysLeft < 0;
            const p = r.protocol;
            return (
              <tr key={p.localId} className={overdue ? 'refills-overdue' : undefined}>
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
                <td>
                  <Link
                    href={`/orders/${encodeURIComponent(r.lastOrderId)}`}
                    className="code"
                    aria-label={`Order ${r.lastOrderId}`}
                  >
                    {r.lastOrderId}
                  </Link>
                </td>
                <td>{formatDay(r.lastOrderedAt)}</td>
                <td className="num">{r.daysSupply} days</td>
                <td>{formatDay(r.runsOutAt)}</td>
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
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
