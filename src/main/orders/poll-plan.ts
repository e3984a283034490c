/**
 * How the order poller spends one cycle's request budget (docs/decisions.md, "Main process: bulk
 * submission and status polling"): a get per due order, or list pages (100 orders each, newest
 * first) for the newest due orders plus gets for the older rest, whichever sees more due orders
 * within the budget, then whichever costs fewer requests.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface PollInterval {
  /** Orders younger than this (since their server createdAt)... */
  maxAgeMs: number;
  /** ...are polled this often. */
  intervalMs: number;
}

/** < 1 h: every minute; < 6 h: 5 min; < 24 h: 15 min; < 7 days: hourly; older: every 6 h. */
export const DEFAULT_POLL_SCHEDULE: readonly PollInterval[] = [
  { maxAgeMs: HOUR, intervalMs: MINUTE },
  { maxAgeMs: 6 * HOUR, intervalMs: 5 * MINUTE },
  { maxAgeMs: DAY, intervalMs: 15 * MINUTE },
  { maxAgeMs: 7 * DAY, intervalMs: HOUR },
  { maxAgeMs: Infinity, intervalMs: 6 * HOUR },
];

/**
 * How often the poller looks for due orders, and how much sooner an order is due, by cadence
 * (docs/decisions.md, "Status polling cadence"). Fast while a window is shown and in use: an
 * order in the schedule's first band (under an hour old) is due five times as often, every 12 s,
 * and a cycle starts every 3 s, so its change is read at most 15 s after it happened; the others
 * keep the schedule. Slow when hidden or idle: the schedule above for every order.
 */
export type PollPace = 'fast' | 'slow';

export interface PollCadence {
  /** Time between the starts of two cycles (a cycle with nothing due sends nothing). */
  cycleMs: number;
  /** The wait since the last poll of an order in the schedule's first band is divided by this. */
  divisor: number;
}

export const POLL_CADENCES: Readonly<Record<PollPace, PollCadence>> = {
  fast: { cycleMs: 3_000, divisor: 5 },
  slow: { cycleMs: MINUTE, divisor: 1 },
};

/** The poller's own requests per sliding minute, at either cadence (two desks: 40 of 60). */
export const POLL_BUDGET_PER_MINUTE = 20;

export function pollIntervalMs(
  ageMs: number,
  schedule: readonly PollInterval[] = DEFAULT_POLL_SCHEDULE,
): number {
  return (schedule.find((s) => ageMs < s.maxAgeMs) ?? schedule[schedule.length - 1]!).intervalMs;
}

export const LIST_PAGE_SIZE = 100;

export interface PollPlan {
  /** List pages to walk first (newest first). */
  pages: number;
  /** Due orders expected to be seen by those pages. */
  coveredByPages: number;
  /** Gets after the walk, for due orders the pages did not show (most overdue first). */
  gets: number;
}

/**
 * @param dueRanks for each due order, its position (0-based) in the list of orders newest first,
 *   as the mirror shows it (Infinity when beyond what the budget could walk): list page k (1-based)
 *   is expected to show ranks 100(k−1) to 100k−1.
 * @param budget requests this cycle may make.
 */
export function planPollCycle(
  dueRanks: readonly number[],
  budget: number,
  strategy: 'hybrid' | 'get' = 'hybrid',
): PollPlan {
  const due = dueRanks.length;
  let best: PollPlan = { pages: 0, coveredByPages: 0, gets: Math.min(due, budget) };
  if (strategy === 'get' || due === 0) return best;
  const ranks = [...dueRanks].sort((a, b) => a - b);
  let covered = 0;
  for (let k = 1; k <= budget && ranks[covered]! < Infinity; k++) {
    while (covered < due && ranks[covered]! < k * LIST_PAGE_SIZE) covered++;
    const gets = Math.min(budget - k, due - covered);
    const seen = covered + gets;
    const bestSeen = best.coveredByPages + best.gets;
    if (seen > bestSeen || (seen === bestSeen && k + gets < best.pages + best.gets)) {
      best = { pages: k, coveredByPages: covered, gets };
    }
    if (covered === due) break;
  }
  return best;
}
