import { endOfDay, isValid, parseISO, startOfDay, subDays } from 'date-fns';
import { ORDER_STATUSES, type OrderStatus, type OrderStatusRead } from '@shared/api';
import { valueLabel } from '@renderer/lib/format';
import type { OrderMatch } from '@shared/work-views';

/** The queue's date presets: days back from today (inclusive), or a range the user picks. */
export const DATE_PRESETS = ['all', 'today', '7d', '30d', '90d', 'custom'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export const DATE_PRESET_LABELS: Record<DatePreset, string> = {
  all: 'Any time',
  today: 'Today',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  custom: 'Custom range',
};

const DAYS_BACK: Partial<Record<DatePreset, number>> = { today: 0, '7d': 6, '30d': 29, '90d': 89 };

export const SEARCH_MAX = 200;

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  NEW: 'New',
  PROCESSING: 'Processing',
  DISPENSING: 'Dispensing',
  FILLED: 'Filled',
  FULFILLED: 'Fulfilled',
  AWAITING_SHIPMENT: 'Awaiting shipment',
  SHIPPED: 'Shipped',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
};

/** An order's status in words; one the app does not know: "On hold (unknown status)". */
export const orderStatusLabel = (status: string): string => valueLabel(ORDER_STATUS_LABELS, status);

export const QUEUE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES;

/**
 * The status chips: every known status, then each status the app does not know that the counts
 * show (some order has it) or the filter holds, as it came.
 */
export function queueStatuses(
  counts: Partial<Record<string, number>> | null,
  chosen: readonly OrderStatusRead[],
): OrderStatusRead[] {
  const known = new Set<string>(QUEUE_STATUSES);
  const unknown = new Set<OrderStatusRead>();
  for (const [status, n] of Object.entries(counts ?? {}))
    if (!known.has(status) && (n ?? 0) > 0) unknown.add(status as OrderStatusRead);
  for (const status of chosen) if (!known.has(status)) unknown.add(status);
  return [...QUEUE_STATUSES, ...[...unknown].sort()];
}

/** What the queue is filtered by: the store's state that the query is built from. */
export interface OrderFilter {
  statuses: readonly OrderStatusRead[];
  search: string;
  preset: DatePreset;
  /** yyyy-MM-dd from the date inputs of a custom range; '' when not set. */
  customFrom: string;
  customTo: string;
}

/** A custom range's problem, on the field it belongs to; null when the range can be used. */
export function rangeProblem(
  from: string,
  to: string,
): { field: 'from' | 'to'; message: string } | null {
  const a = from ? parseISO(from) : null;
  const b = to ? parseISO(to) : null;
  if (a && !isValid(a)) return { field: 'from', message: 'Enter a date such as 2026-01-31.' };
  if (b && !isValid(b)) return { field: 'to', message: 'Enter a date such as 2026-01-31.' };
  if (a && b && b < a) return { field: 'to', message: 'The end date is before the start date.' };
  return null;
}

/**
 * The created-date bounds of a filter, as the contract's ISO timestamps (local days: from the
 * start of the first day to the end of the last). A preset counts back from `now`, so "Last 7
 * days" keeps meaning the last seven days; an invalid custom range filters nothing.
 */
export function dateBounds(
  filter: Pick<OrderFilter, 'preset' | 'customFrom' | 'customTo'>,
  now: Date = new Date(),
): Pick<OrderMatch, 'createdFrom' | 'createdTo'> {
  const back = DAYS_BACK[filter.preset];
  if (back !== undefined) return { createdFrom: startOfDay(subDays(now, back)).toISOString() };
  if (filter.preset !== 'custom' || rangeProblem(filter.customFrom, filter.customTo)) return {};
  return {
    ...(filter.customFrom
      ? { createdFrom: startOfDay(parseISO(filter.customFrom)).toISOString() }
      : {}),
    ...(filter.customTo ? { createdTo: endOfDay(parseISO(filter.customTo)).toISOString() } : {}),
  };
}

/** The orders.counts argument: search and dates (the counts are per status). */
export function matchOf(filter: OrderFilter, now?: Date): OrderMatch {
  const search = filter.search.trim();
  return { ...(search ? { search } : {}), ...dateBounds(filter, now) };
}

export const isFiltered = (filter: OrderFilter): boolean =>
  filter.statuses.length > 0 || filter.search.trim() !== '' || filter.preset !== 'all';
