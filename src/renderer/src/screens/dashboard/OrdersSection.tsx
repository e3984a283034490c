import { useMemo, useState } from 'react';
import type { OrderPeriod } from '@shared/dashboard-views';
import { formatMoney } from '@renderer/lib/format';
import { orderStatusLabel } from '@renderer/lib/order-filters';
import { BarChart, type ChartSeries } from './BarChart';
import { ChartCard } from './ChartCard';
import {
  amountValue,
  axisMonth,
  monthLabel,
  ordersOf,
  standingStatuses,
  shortDay,
  statusColor,
  weekLabel,
} from './dashboard-figures';

type Period = 'month' | 'week';

const wholeDollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;

/**
 * Orders and their total per month or week over the last 12 months: the standing orders split by
 * status, cancelled ones apart (a line, and their own columns in the table).
 */
export function OrdersSection({
  months,
  weeks,
}: {
  months: readonly OrderPeriod[];
  weeks: readonly OrderPeriod[];
}) {
  const [period, setPeriod] = useState<Period>('month');
  const periods = period === 'month' ? months : weeks;
  const label = period === 'month' ? monthLabel : weekLabel;
  const statuses = useMemo(() => standingStatuses(periods), [periods]);
  const labels = useMemo(
    () => periods.map((p) => (period === 'month' ? axisMonth(p.start) : shortDay(p.start))),
    [periods, period],
  );
  const countSeries = useMemo<ChartSeries[]>(
    () => [
      ...statuses.map((status): ChartSeries => ({
        label: orderStatusLabel(status),
        color: statusColor(status),
        kind: 'bar',
        values: periods.map((p) => ordersOf(p, status)),
      })),
      {
        label: 'Cancelled',
        color: '--chart-cancelled',
        kind: 'line',
        values: periods.map((p) => p.cancelled.orders),
      },
    ],
    [statuses, periods],
  );
  const totalSeries = useMemo<ChartSeries[]>(
    () => [
      {
        label: 'Standing total',
        color: '--chart-delivered',
        kind: 'bar',
        values: periods.map((p) => amountValue(p.standing.amount)),
      },
      {
        label: 'Cancelled total',
        color: '--chart-cancelled',
        kind: 'line',
        values: periods.map((p) => amountValue(p.cancelled.amount)),
      },
    ],
    [periods],
  );
  const noun = period === 'month' ? 'month' : 'week';
  const countTable = (
    <table className="table dashboard-orders-table">
      <caption>Orders per {noun}, last 12 months, by status</caption>
      <thead>
        <tr>
          <th scope="col">{period === 'month' ? 'Month' : 'Week'}</th>
          {statuses.map((s) => (
            <th scope="col" key={s}>
              {orderStatusLabel(s)}
            </th>
          ))}
          <th scope="col">Standing orders</th>
          <th scope="col">Cancelled</th>
        </tr>
      </thead>
      <tbody>
        {periods.map((p) => (
          <tr key={p.start}>
            <th scope="row">{label(p.start)}</th>
            {statuses.map((s) => (
              <td key={s}>{ordersOf(p, s)}</td>
            ))}
            <td data-figure="orders">{p.standing.orders}</td>
            <td data-figure="cancelled">{p.cancelled.orders}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  const totalTable = (
    <table className="table dashboard-totals-table">
      <caption>Total per {noun}, last 12 months</caption>
      <thead>
        <tr>
          <th scope="col">{period === 'month' ? 'Month' : 'Week'}</th>
          <th scope="col">Standing total</th>
          <th scope="col">Cancelled total</th>
        </tr>
      </thead>
      <tbody>
        {periods.map((p) => (
          <tr key={p.start}>
            <th scope="row">{label(p.start)}</th>
            <td data-figure="total">{formatMoney(p.standing.amount)}</td>
            <td data-figure="cancelled-total">{formatMoney(p.cancelled.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <>
      <fieldset className="segmented dashboard-period">
        <legend>Orders per</legend>
        {(['month', 'week'] as const).map((p) => (
          <label key={p} className="segment">
            <input
              type="radio"
              name="dashboard-period"
              value={p}
              checked={period === p}
              onChange={() => setPeriod(p)}
            />
            <span>{p === 'month' ? 'Month' : 'Week'}</span>
          </label>
        ))}
      </fieldset>
      <div className="dashboard-grid">
        <ChartCard
          title={`Orders per ${noun}`}
          lead={
            <p className="muted">Standing orders by status; cancelled ones as a dashed line.</p>
          }
          chart={<BarChart labels={labels} series={countSeries} stacked integer height={260} />}
          table={countTable}
        />
        <ChartCard
          title={`Total per ${noun}`}
          lead={
            <p className="muted">
              What the standing orders cost; cancelled ones, not charged, apart.
            </p>
          }
          chart={
            <BarChart labels={labels} series={totalSeries} height={260} format={wholeDollars} />
          }
          table={totalTable}
        />
      </div>
    </>
  );
}
