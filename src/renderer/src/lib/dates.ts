import { addDays, format, isSameDay, isValid, parseISO, subDays } from 'date-fns';

/**
 * Every date and time the window shows goes through this module, in one style (US English,
 * 12-hour clock, the computer's time zone): a day "Nov 26, 2026", a moment "Nov 26, 2026, 1:05 PM",
 * a time "1:05 PM". The style is fixed rather than the machine's locale so that every screen, the
 * help text and the tests read alike. Whatever cannot be read as a date is shown as it came.
 */

/** What the app holds a moment as: an ISO 8601 string (the API's), epoch ms (main's), or a Date. */
export type Moment = string | number | Date;

const DAY = 'MMM d, yyyy';
const TIME = 'h:mm a';
const DAY_TIME = `${DAY}, ${TIME}`;

function toDate(value: Moment): Date | null {
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? date : null;
}

function shown(value: Moment | null | undefined, pattern: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  return date ? format(date, pattern) : String(value);
}

/** "Nov 26, 2026": a day (refills, when supplies run out). */
export const formatDate = (value: Moment | null | undefined): string => shown(value, DAY);

/** "Nov 26, 2026, 1:05 PM": a moment (orders, batches, tracking checkpoints). */
export const formatDateTime = (value: Moment | null | undefined): string => shown(value, DAY_TIME);

/** "1:05 PM": the time of day alone. */
export const formatTimeOfDay = (value: Moment | null | undefined): string => shown(value, TIME);

/**
 * A moment that is usually recent (the last sync, an update check, a conflict found): the time
 * alone when it is today, "1:05 PM", else with its day, "Nov 26, 2026, 1:05 PM".
 */
export function formatMoment(value: Moment | null | undefined, now: Date = new Date()): string {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) return shown(value, TIME);
  return isSameDay(date, now) ? format(date, TIME) : format(date, DAY_TIME);
}

/**
 * A moment relative to today where a list reads better so (the protocols' last change): "today,
 * 1:05 PM", "yesterday, 1:05 PM", else "Nov 26, 2026, 1:05 PM".
 */
export function formatRecent(value: Moment | null | undefined, now: Date = new Date()): string {
  const date = value === null || value === undefined ? null : toDate(value);
  if (!date) return shown(value, TIME);
  if (isSameDay(date, now)) return `today, ${format(date, TIME)}`;
  if (isSameDay(date, subDays(now, 1))) return `yesterday, ${format(date, TIME)}`;
  return format(date, DAY_TIME);
}

/** A day as a date field holds it, "2026-11-26", in the computer's time zone (today by default). */
export const dayFieldValue = (value: Date = new Date()): string => format(value, 'yyyy-MM-dd');

/** Whether `value` is a day a date field holds ("2026-11-26") that exists on the calendar. */
export const isDayFieldValue = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parseISO(value));

/**
 * The last day of a supply of `days` days taken from `start` on ("2026-11-26", a date field's
 * value): 30 days from Nov 1 last until Nov 30. Null for a day that cannot be read.
 */
export function lastDayOfSupply(start: string, days: number): string | null {
  if (!isDayFieldValue(start) || days < 1) return null;
  return format(addDays(parseISO(start), days - 1), 'yyyy-MM-dd');
}
