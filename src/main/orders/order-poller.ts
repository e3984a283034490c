import type { AppOrder } from '@shared/api';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import { describeSkipped } from '../api/http';
import { systemClock, type Clock } from '../clock';
import type { CoreEvents } from '@shared/core-events';
import type { CoreEventBus } from '../core-event-bus';
import type { OrderStore } from './order-store';
import type { DueOrder } from './orders-repo';
import {
  DEFAULT_POLL_SCHEDULE,
  LIST_PAGE_SIZE,
  POLL_BUDGET_PER_MINUTE,
  POLL_CADENCES,
  planPollCycle,
  pollIntervalMs,
  type PollCadence,
  type PollInterval,
  type PollPace,
  type PollPlan,
} from './poll-plan';
import { realTimers, type Timers } from '../timers';

export interface OrderPollerOptions {
  store: OrderStore;
  client: Pick<ApiClient, 'getOrder' | 'listOrders'>;
  bus: CoreEventBus;
  /** The steady clock of the poll schedule. */
  clock?: Clock;
  /** The server's time: an order's age counts from its server createdAt to it. Default `clock`. */
  serverTime?: Clock;
  timers?: Timers;
  /** API requests the poller may make in any minute. Default 20 (POLL_BUDGET_PER_MINUTE). */
  budgetPerMinute?: number;
  /** Time between cycles at the slow cadence. Default 60 s. */
  cycleMs?: number;
  /** Whether someone is looking (the Presence): fast or slow cadence. Absent: always slow. */
  pace?: PaceSource;
  /** The fast cadence. Default POLL_CADENCES.fast. */
  fast?: PollCadence;
  /** The longest wait after the server answered 429. Default 5 min. */
  maxBackoffMs?: number;
  /** 'get' polls each due order with get order (the baseline the benchmark compares with). */
  strategy?: 'hybrid' | 'get';
  schedule?: readonly PollInterval[];
  /** False while nothing may be sent (offline, credentials rejected): a cycle then reads nothing. */
  online?: () => boolean;
  log?: (line: string) => void;
}

export interface PollCycleReport {
  /** Orders due at the start of the cycle. */
  due: number;
  budget: number;
  plan: PollPlan;
  listPages: number;
  gets: number;
  /** Due orders read this cycle (by a page or a get). */
  polled: number;
  /** Orders whose status changed (an order-status event each). */
  changed: number;
  /** Orders the server sent that could not be read: left out (and logged), the rest applied. */
  unreadable: number;
  /** Due orders left for a later cycle (budget spent, or a failure stopped the cycle). */
  deferred: number;
  error: string | null;
}

type OrderStatusEvent = CoreEvents['order-status'];

/** The pace the poller follows, and its changes (main/presence.ts). */
export interface PaceSource {
  readonly pace: PollPace;
  onChange(listener: (pace: PollPace) => void): () => void;
}

const WINDOW_MS = 60_000;
const MAX_DUE_READ = 100_000;
/** A cycle spends at most the budget of this much of a minute, so a burst leaves room after it. */
const BURST_MS = 15_000;

/**
 * Follows active orders until a final status (CANCELLED, SHIPPED, DELIVERED): each order is due
 * on a schedule that backs off with its age (poll-plan.ts); each cycle reads the due orders, most
 * overdue first, within the request budget, by gets or list pages (planPollCycle). A status
 * change updates the store and emits `order-status`. An order the server sends in a shape the
 * app cannot read is left out, logged and asked again at its next poll: it never stops the cycle
 * for the others. A status the app does not know is stored as it came and followed like any
 * status that is not final.
 */
export class OrderPoller {
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly budgetPerMinute: number;
  private readonly cycleMs: number;
  private readonly fast: PollCadence;
  private readonly maxBackoffMs: number;
  private readonly schedule: readonly PollInterval[];
  private readonly log: (line: string) => void;
  /** Times of requests made in the last minute (the budget's sliding window). */
  private readonly spent: number[] = [];
  private handle: unknown = null;
  private running = false;
  private current: Promise<unknown> | null = null;
  /** The wait after a 429 (0: none): it doubles while the server keeps refusing. */
  private backoffMs = 0;
  /** When a fast cycle last looked at every due order, not only the first band. */
  private lastWholeAt = -Infinity;
  private unsubscribePace: (() => void) | null = null;

  constructor(private readonly options: OrderPollerOptions) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.budgetPerMinute = options.budgetPerMinute ?? POLL_BUDGET_PER_MINUTE;
    this.cycleMs = options.cycleMs ?? POLL_CADENCES.slow.cycleMs;
    this.fast = options.fast ?? POLL_CADENCES.fast;
    this.maxBackoffMs = options.maxBackoffMs ?? 5 * 60_000;
    this.schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
    this.log = options.log ?? (() => undefined);
  }

  /** The cadence now: fast while someone looks at a window, else slow. */
  get pace(): PollPace {
    return this.options.pace?.pace ?? 'slow';
  }

  /** Runs a cycle now and then one per cycle of the cadence until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const longest = this.schedule[this.schedule.length - 1]!.intervalMs;
    this.options.store.orders.clampPollSchedule(this.clock.now(), longest);
    // Back to fast (a window shown again): a cycle at once, unless the server asked to wait.
    this.unsubscribePace =
      this.options.pace?.onChange((pace) => {
        if (pace !== 'fast' || !this.running || this.backoffMs > 0 || this.handle === null) return;
        this.timers.clearTimeout(this.handle);
        this.next(0);
      }) ?? null;
    this.next(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribePace?.();
    this.unsubscribePace = null;
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
    await this.current;
  }

  /** Time between cycles at the cadence now. */
  get currentCycleMs(): number {
    return this.pace === 'fast' ? this.fast.cycleMs : this.cycleMs;
  }

  /**
   * The budget of one cycle: the per-minute budget scaled to the cycle (at least 15 s of it), less
   * what the last minute used.
   */
  cycleBudget(now = this.clock.now()): number {
    while (this.spent.length > 0 && this.spent[0]! <= now - WINDOW_MS) this.spent.shift();
    const share = Math.max(this.currentCycleMs, BURST_MS) / WINDOW_MS;
    const perCycle = Math.max(1, Math.floor(this.budgetPerMinute * share));
    return Math.max(0, Math.min(perCycle, this.budgetPerMinute - this.spent.length));
  }

  /** One cycle. Never throws: a failure stops the cycle and leaves the rest due. */
  async pollOnce(): Promise<PollCycleReport> {
    const { orders } = this.options.store;
    const now = this.clock.now();
    const sending = this.options.online?.() ?? true;
    const budget = sending ? this.cycleBudget(now) : 0;
    // Fast: the first band alone, and every order once per slow cycle, so the backlog of older
    // orders never takes the budget the young ones need.
    const whole = this.pace !== 'fast' || now - this.lastWholeAt >= this.cycleMs;
    if (whole && sending) this.lastWholeAt = now;
    const fast =
      this.pace === 'fast'
        ? {
            divisor: this.fast.divisor,
            upToMs: this.schedule[0]!.intervalMs,
            only: !whole,
            // A young order never read yet (just made here, or just pulled) is in the first band.
            youngSince: (this.options.serverTime ?? this.clock).now() - this.schedule[0]!.maxAgeMs,
          }
        : null;
    const due = orders.dueForPolling(now, MAX_DUE_READ, fast);
    const ranks = due.length > 0 ? this.mirrorRanks(budget) : new Map<string, number>();
    const plan = planPollCycle(
      due.map((d) => ranks.get(d.order.id) ?? Infinity),
      budget,
      this.options.strategy,
    );
    const report: PollCycleReport = {
      due: due.length,
      budget,
      plan,
      listPages: 0,
      gets: 0,
      polled: 0,
      changed: 0,
      unreadable: 0,
      deferred: 0,
      error: null,
    };
    if (!sending) {
      report.deferred = due.length;
      return report;
    }
    const seen = new Set<string>();
    const dueIds = new Set(due.map((d) => d.order.id));
    try {
      if (plan.pages > 0) await this.walk(plan.pages, due, seen, report);
      for (const d of due) {
        if (report.listPages + report.gets >= budget) break;
        if (seen.has(d.order.id)) continue;
        await this.get(d, report);
        seen.add(d.order.id);
      }
      this.backoffMs = 0;
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
      this.log(`order poll cycle stopped: ${report.error}`);
      if (isApiClientError(error, 'rate-limited')) this.backOff(error.retryAfterMs);
    }
    report.polled = [...seen].filter((id) => dueIds.has(id)).length;
    report.deferred = due.length - report.polled;
    return report;
  }

  /** The wait before the next cycle now (the backoff after a 429, else the cadence's cycle). */
  get nextDelayMs(): number {
    return this.backoffMs > 0 ? this.backoffMs : this.currentCycleMs;
  }

  /**
   * The server refused for too many requests (the account's limit is shared with other desks and
   * this desk's writes): wait what it asked, at least twice the last wait, at most maxBackoffMs.
   */
  private backOff(retryAfterMs: number | undefined): void {
    const doubled = Math.max(this.backoffMs, this.currentCycleMs) * 2;
    this.backoffMs = Math.min(this.maxBackoffMs, Math.max(retryAfterMs ?? 0, doubled));
    this.log(`rate limited: the next poll cycle waits ${Math.round(this.backoffMs / 1000)} s`);
  }

  private next(delayMs: number): void {
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      this.current = this.pollOnce().finally(() => {
        this.current = null;
        if (this.running) this.next(this.nextDelayMs);
      });
    }, delayMs);
  }

  /** Position of each of the newest `pages` × 100 mirrored orders in the list, newest first. */
  private mirrorRanks(pages: number): Map<string, number> {
    const rows = this.options.store.db
      .prepare('SELECT id FROM orders ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(pages * LIST_PAGE_SIZE) as { id: string }[];
    return new Map(rows.map((r, i) => [r.id, i]));
  }

  private async walk(
    pages: number,
    due: readonly DueOrder[],
    seen: Set<string>,
    report: PollCycleReport,
  ): Promise<void> {
    // Nothing older than the oldest due order needs reading.
    const oldestDue = Math.min(...due.map((d) => Date.parse(d.order.createdAt)));
    let cursor: string | null = null;
    for (let k = 0; k < pages; k++) {
      this.spend();
      report.listPages++;
      const page: Awaited<ReturnType<ApiClient['listOrders']>> =
        await this.options.client.listOrders({
          limit: LIST_PAGE_SIZE,
          direction: 'next',
          ...(cursor === null ? {} : { cursor }),
        });
      report.unreadable += page.skipped.length;
      for (const item of page.skipped) this.log(describeSkipped('order', item));
      const changes = this.options.store.transaction(() =>
        page.orders.flatMap((order) => {
          if (this.options.store.orders.get(order.id) === null) return []; // not followed here
          seen.add(order.id);
          return this.record(order, report);
        }),
      );
      for (const change of changes) this.options.bus.emit('order-status', change);
      const oldest = page.orders.at(-1);
      const allSeen = due.every((d) => seen.has(d.order.id));
      if (!oldest || !page.cursor || allSeen || Date.parse(oldest.createdAt) < oldestDue) break;
      cursor = page.cursor;
    }
  }

  private async get(due: DueOrder, report: PollCycleReport): Promise<void> {
    this.spend();
    report.gets++;
    try {
      const change = this.record(await this.options.client.getOrder(due.order.id), report);
      for (const c of change) this.options.bus.emit('order-status', c);
    } catch (error) {
      if (isApiClientError(error, 'invalid-response')) {
        // This one order cannot be read: the others are polled, and it is asked again later.
        report.unreadable++;
        const now = this.clock.now();
        this.options.store.orders.schedulePoll(due.order.id, {
          polledAt: now,
          nextPollAt: now + pollIntervalMs(now - Date.parse(due.order.createdAt), this.schedule),
        });
        this.log(`order ${due.order.id} could not be read: ${error.message}`);
        return;
      }
      if (!isApiClientError(error, 'not-found')) throw error;
      // Gone from the server (it should not happen): ask again rarely rather than every cycle.
      const now = this.clock.now();
      this.options.store.orders.schedulePoll(due.order.id, {
        polledAt: now,
        nextPollAt: now + this.schedule[this.schedule.length - 1]!.intervalMs,
      });
      this.log(`order ${due.order.id} is not found on the server`);
    }
  }

  /** Stores a fresh read of an order and schedules its next poll; returns its status change, if any. */
  private record(order: AppOrder, report: PollCycleReport): OrderStatusEvent[] {
    const { orders } = this.options.store;
    const now = this.clock.now();
    const age = (this.options.serverTime ?? this.clock).now() - Date.parse(order.createdAt);
    const nextPollAt = now + pollIntervalMs(age, this.schedule);
    const result = orders.upsert(order, { source: 'pulled', nextPollAt });
    orders.schedulePoll(order.id, { polledAt: now, nextPollAt });
    if (!result.statusChanged) return [];
    report.changed++;
    return [
      {
        orderId: order.id,
        previous: result.previous?.status ?? null,
        status: result.order.status,
        order: result.order,
      },
    ];
  }

  private spend(): void {
    this.spent.push(this.clock.now());
  }
}
