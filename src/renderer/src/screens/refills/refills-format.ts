import { format, isValid, parseISO } from 'date-fns';

/** "Nov 24, 2026": a day, as the refills tables show it. */
export function formatDay(iso: string): string {
  const date = parseISO(iso);
  return isValid(date) ? format(date, 'PP') : iso;
}

/**
 * Whole days until the supply runs out (refills.due floors them), in words: "12 days", "Less than
 * a day" (0), "Ran out 3 days ago".
 */
export function daysLeftText(daysLeft: number): string {
  if (daysLeft === 0) return 'Less than a day';
  const n = Math.abs(daysLeft);
  const days = `${n} ${n === 1 ? 'day' : 'days'}`;
  return daysLeft > 0 ? days : `Ran out ${days} ago`;
}
