import { useMemo } from 'react';
import { Link } from 'wouter';
import { DASHBOARD_REFILL_DAYS, type DashboardView } from '@shared/dashboard-views';
import { plural } from '@renderer/lib/format';
import { BarChart, type ChartSeries } from './BarChart';
import { ChartCard } from './ChartCard';
import { daysFrom, longDayLabel, shortDay } from './dashboard-figures';

/** Where the refills of one day are reviewed (Refills due, that day only). */
export const refillDayHref = (day: string) => `/refills/${day}`;

/**
 * The refills coming due in the next 30 days (Refills due's rule), by the day the supply runs
 * out. A bar clicked, or a day of the table (by keyboard), opens those refills to review.
 */
export function RefillsSection({
  refills,
  asOf,
  onDay,
}: {
  refills: DashboardView['refills'];
  asOf: string;
  onDay: (href: string) => void;
}) {
  const days = useMemo(
    () => daysFrom(new Date(Date.parse(asOf)), DASHBOARD_REFILL_DAYS + 1),
    [asOf],
  );
  const labels = useMemo(() => days.map(shortDay), [days]);
  const series = useMemo<ChartSeries[]>(
    () => [
      {
        label: 'Refills due',
        color: '--chart-new',
        kind: 'bar',
        values: days.map((d) => refills.days.find((r) => r.day === d)?.refills ?? 0),
      },
    ],
    [days, refills],
  );
  const pick = (index: number) => {
    const day = days[index];
    if (day && refills.days.some((r) => r.day === day)) onDay(refillDayHref(day));
  };
  const total = refills.days.reduce((n, d) => n + d.refills, 0);
  return (
    <ChartCard
      title="Refills coming due"
      lead={
        <p className="muted">
          {plural(total, 'supply', 'supplies')} run out in the next {DASHBOARD_REFILL_DAYS} days
          {refills.overdue > 0 && (
            <>
              {'; '}
              <Link href="/refills">{refills.overdue} already ran out</Link>
            </>
          )}
          . Choose a day to review its refills.
        </p>
      }
      chart={<BarChart labels={labels} series={series} integer height={200} onPick={pick} />}
      tableAlwaysShown
      table={
        refills.days.length === 0 ? (
          <p className="muted">No supply runs out in the next {DASHBOARD_REFILL_DAYS} days.</p>
        ) : (
          <table className="table dashboard-refills-table">
            <caption>Refills coming due by day, next {DASHBOARD_REFILL_DAYS} days</caption>
            <thead>
              <tr>
                <th scope="col">Day the supply runs out</th>
                <th scope="col">Refills</th>
              </tr>
            </thead>
            <tbody>
              {refills.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">
                    <Link href={refillDayHref(d.day)}>{longDayLabel(d.day)}</Link>
                  </th>
                  <td data-figure="refills">{d.refills}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    />
  );
}
