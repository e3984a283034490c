import { ORDER_STATUSES } from '@shared/api';
import type { DashboardView, LocalDay, OrderPeriod } from '@shared/dashboard-views';
import type { ChartSeries } from './BarChart';

/** A local day (YYYY-MM-DD) as the Date of its local midnight. */
export const dayDate = (day: LocalDay): Date => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
};

const shortMonth = new Intl.DateTimeFormat('en-US', { month: 'short' });
const monthName = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric' });
const dayName = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const longDay = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
});

/** "Dec ’25": a month on the axis, never read as a day ("Dec 25"). */
export const axisMonth = (day: LocalDay) =>
  `${shortMonth.format(dayDate(day))} ’${day.slice(2, 4)}`;
export const monthLabel = (day: LocalDay) => monthName.format(dayDate(day));
export const weekLabel = (day: LocalDay) => `Week of ${dayName.format(dayDate(day))}`;
export const shortDay = (day: LocalDay) => dayName.format(dayDate(day));
export const longDayLabel = (day: LocalDay) => longDay.format(dayDate(day));

/** The CSS variable of a status's colour (styles/dashboard.css); a status the app does not know: grey. */
export const statusColor = (status: string): string =>
  (ORDER_STATUSES as readonly string[]).includes(status)
    ? `--chart-${status.toLowerCase().replaceAll('_', '-')}`
    : '--chart-other';

/** The statuses the periods hold, standing ones only, in the API's order (unknown ones last). */
export function standingStatuses(periods: readonly OrderPeriod[]): string[] {
  const seen = new Set<string>();
  for (const p of periods)
    for (const s of p.byStatus) if (s.status !== 'CANCELLED') seen.add(s.status);
  const known = ORDER_STATUSES.filter((s) => seen.has(s));
  const unknown = [...seen]
    .filter((s) => !(ORDER_STATUSES as readonly string[]).includes(s))
    .sort();
  return [...known, ...unknown];
}

export const ordersOf = (p: OrderPeriod, status: string): number =>
  p.byStatus.find((s) => s.status === status)?.orders ?? 0;

/** Cents of a Money string, for drawing only (the figures shown are the strings). */
export const amountValue = (money: string): number => Number(money);

/** The days from `first` on, `count` of them, as LocalDays. */
export function daysFrom(first: Date, count: number): LocalDay[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(first.getFullYear(), first.getMonth(), first.getDate() + i);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  });
}

/** Series of the batches' days: created and refused stacked, possible duplicates a line. */
export function batchSeries(view: DashboardView, days: readonly LocalDay[]): ChartSeries[] {
  const of = (day: LocalDay) => view.batches.days.find((d) => d.day === day);
  return [
    {
      label: 'Orders created',
      color: '--chart-delivered',
      kind: 'bar',
      values: days.map((d) => of(d)?.created ?? 0),
    },
    {
      label: 'Refused',
      color: '--chart-cancelled',
      kind: 'bar',
      values: days.map((d) => of(d)?.refused ?? 0),
    },
    {
      label: 'Possible duplicates',
      color: '--chart-awaiting-shipment',
      kind: 'line',
      values: days.map((d) => of(d)?.possibleDuplicates ?? 0),
    },
  ];
}
