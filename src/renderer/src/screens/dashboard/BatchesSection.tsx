import { useMemo } from 'react';
import { DASHBOARD_BATCH_DAYS, type DashboardView } from '@shared/dashboard-views';
import { BarChart } from './BarChart';
import { ChartCard } from './ChartCard';
import { batchSeries, daysFrom, longDayLabel, shortDay } from './dashboard-figures';

/** The batches of the last 30 days: how many, the orders they created, refusals, possible duplicates. */
export function BatchesSection({ view }: { view: DashboardView }) {
  const days = useMemo(() => {
    const now = new Date(Date.parse(view.asOf));
    const first = new Date(
      now.getFullYear(),
      now.getMonth(),
      now.getDate() - DASHBOARD_BATCH_DAYS + 1,
    );
    return daysFrom(first, DASHBOARD_BATCH_DAYS);
  }, [view.asOf]);
  const labels = useMemo(() => days.map(shortDay), [days]);
  const series = useMemo(() => batchSeries(view, days), [view, days]);
  const b = view.batches;
  return (
    <ChartCard
      title={`Batches of the last ${DASHBOARD_BATCH_DAYS} days`}
      lead={
        <dl className="dashboard-figures">
          <div>
            <dt>Batches</dt>
            <dd data-figure="batches">{b.batches}</dd>
          </div>
          <div>
            <dt>Orders created</dt>
            <dd data-figure="created">{b.created}</dd>
          </div>
          <div>
            <dt>Refused</dt>
            <dd data-figure="refused">{b.refused}</dd>
          </div>
          <div>
            <dt>Possible duplicates</dt>
            <dd data-figure="possible-duplicates">{b.possibleDuplicates}</dd>
          </div>
        </dl>
      }
      chart={<BarChart labels={labels} series={series} stacked integer height={200} />}
      table={
        <table className="table">
          <caption>Batches by day, last {DASHBOARD_BATCH_DAYS} days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Batches</th>
              <th scope="col">Orders created</th>
              <th scope="col">Refused</th>
              <th scope="col">Possible duplicates</th>
            </tr>
          </thead>
          <tbody>
            {b.days.length === 0 ? (
              <tr>
                <td colSpan={5}>No batch in the last {DASHBOARD_BATCH_DAYS} days.</td>
              </tr>
            ) : (
              b.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{longDayLabel(d.day)}</th>
                  <td>{d.batches}</td>
                  <td>{d.created}</td>
                  <td>{d.refused}</td>
                  <td>{d.possibleDuplicates}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      }
    />
  );
}
