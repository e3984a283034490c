import type { AppOrder } from '@shared/api';
import type { ApiClient } from '../api/client';
import { isApiClientError } from '../api/errors';
import { describeSkipped } from '../api/http';
import { systemClock, type Clock } from '../clock';
import type { CoreEvents } from '@shared/events';
import type { CoreEventBus } from '../events';
import type { LocalStore } from '../stores';
import type { DueOrder } from './orders-repo';
import {
  DEFAULT_POLL_SCHEDULE,
  LIST_PAGE_SIZE,
  planPollCycle,
  pollIntervalMs,
  type PollInterval,
  type PollPlan,
} from './poll-plan';
import { realTimers, type Timers } from '../timers';

export interface OrderPollerOptions {
  store: LocalStore;
  client: Pick<ApiClient, 'getOrder' | 'listOrders'>;
  bus: CoreEventBus;
  /** The steady clock of the poll schedule. */
  clock?: Clock;
  /** The server's time: an order's age counts from its server createdAt to it. Default `clock`. */
  serverTime?: Clock;
  timers?: Timers;
  /** API requests the poller may make in any minute. Default 60. */
  budgetPerMinute?: number;
  /** Time between cycles once started. Default 60 s. */
  cycleMs?: number;
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

const WINDOW_MS = 60_000;
const MAX_DUE_READ = 100_000;

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
  private readonly schedule: readonly PollInterval[];
  private readonly log: (line: string) => void;
  /** Times of requests made in the last minute (the budget's sliding window). */
  private readonly spent: number[] = [];
  private handle: unknown = null;
  private running = false;
  private current: Promise<unknown> | null = null;

  constructor(private readonly options: OrderPollerOptions) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.budgetPerMinute = options.budgetPerMinute ?? 60;
    this.cycleMs = options.cycleMs ?? 60_000;
    this.schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
    this.log = options.log ?? (() => undefined);
  }

  /** Runs a cycle now and then every cycleMs until stop(). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const longest = this.schedule[this.schedule.length - 1]!.intervalMs;
    this.options.store.orders.clampPollSchedule(this.clock.now(), longest);
    this.next(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.handle !== null) this.timers.clearTimeout(this.handle);
    this.handle = null;
    await this.current;
  }

  /** The budget of one cycle: the per-minute budget scaled to the cycle, less what the last minute used. */
  cycleBudget(now = this.clock.now()): number {
    while (this.spent.length > 0 && this.spent[0]! <= now - WINDOW_MS) this.spent.shift();
    const perCycle = Math.max(1, Math.floor((this.budgetPerMinute * this.cycleMs) / WINDOW_MS));
    return Math.max(0, Math.min(perCycle, this.budgetPerMinute - this.spent.length));
  }

  /** One cycle. Never throws: a failure stops the cycle and leaves the rest due. */
  async pollOnce(): Promise<PollCycleReport> {
    const { orders } = this.options.store;
    const now = this.clock.now();
    const sending = this.options.online?.() ?? true;
    const budget = sending ? this.cycleBudget(now) : 0;
    const due = orders.dueForPolling(now, MAX_DUE_READ);
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
    } catch (error) {
      report.error = error instanceof Error ? error.message : String(error);
      this.log(`order poll cycle stopped: ${report.error}`);
    }
    report.polled = [...seen].filter((id) => dueIds.has(id)).length;
    report.deferred = due.length - report.polled;
    return report;
  }

  private next(delayMs: number): void {
    this.handle = this.timers.setTimeout(() => {
      this.handle = null;
      this.current = this.pollOnce().finally(() => {
        this.current = null;
        if (this.running) this.next(this.cycleMs);
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
