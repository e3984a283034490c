import { format, isValid, parseISO } from 'date-fns';

/** "Nov 24, 2026": a day, as the refills tables show it. */
export function formatDay(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'PP') : iso;
}

/** Whole days until the supply runs out, in words: "12 days", "Today", "3 days ago". */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft === 0) return 'Runs out today';
  const n = Math.abs(daysLeft);
  const days = `${n} ${n === 1 ? 'day' : 'days'}`;
  return daysLeft > 0 ? days : `Ran out ${days} ago`;
}
