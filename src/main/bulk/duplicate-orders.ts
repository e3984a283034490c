import type { AppOrder, CreateOrderRequest } from '@shared/api';
import type { Clock } from '../clock';
import type { DuplicateRef, StoredJob } from '../jobs/job-model';
import { SERVER_TIME_MARGIN_MS, UNKNOWN_TIME_MARGIN_MS } from '../jobs/sent-window';
import type { BatchStore } from './batch-store';
import { parseRow } from '../db/rows';
import { orderHoldsRequest, sameOrderContent } from '../orders/order-content';
import { OrderJobData, type DuplicateVerdict, type OrderJob } from '../orders/order-job';
import type { RecentOrders } from '../orders/recent-orders';
import { DAY_MS, currentSupply, daysEarly } from '../orders/supply';

/**
 * Each create is checked against the server's orders as read after its batch was submitted and
 * no longer than this before...
 */
export const CHECK_FRESH_MS = 10_000;
/** ...or, when the server fails that read, no longer than this before (else it waits). */
export const CHECK_STALE_MS = 30_000;

/**
 * For this long after a create of a batch was held back for another desk's order, the batch's
 * creates are each checked against a read begun after they were claimed: two desks working
 * through the same patients race less.
 */
export const RACED_MS = 60_000;

/**
 * After a batch, orders made up to this long after its end are still looked at for repeats of
 * its items (a create that committed after it was given up on shows up late).
 */
export const LATE_ORDER_WINDOW_MS = 10 * 60_000;

/**
 * Two desks' orders of the same patient and content made this close (server time) were a race
 * neither desk's check could see: the desk that made the later one cancels it by itself.
 * Further apart, a person decides (docs/decisions.md, "Two desks at the same moment").
 */
export const SAME_MOMENT_MS = 60_000;

/**
 * How far back the server's orders are read before a create: one order's whole supply. An order
 * made earlier still counts through the supply it starts (overlapping orders add up), as the
 * mirror holds it.
 */
export const duplicateWindowMs = (daysSupply: number): number => daysSupply * DAY_MS;

const refOf = (o: AppOrder): DuplicateRef => ({
  orderId: o.id,
  createdAt: o.createdAt,
  status: o.status,
});

export interface DuplicateOrdersOptions {
  store: BatchStore;
  recent: Pick<RecentOrders, 'fresh' | 'read' | 'covers' | 'ageMs'>;
  /** The server's time. */
  serverTime: Clock;
  /** The steady clock of the jobs' times. */
  steady: Clock;
}

/**
 * One order per patient unless a person says otherwise (docs/decisions.md, "Duplicate orders").
 * The API has no idempotency key and no conditional create, so the app looks: before a batch is
 * reviewed, and again just before each create, at the server's recent orders (other desks' too)
 * for an order of the same patient and content within its supply; such a create is held back
 * until the user includes it. After a batch, orders that repeat one of its items (a late commit,
 * another desk at the same moment) are recorded as possible duplicates.
 */
export class DuplicateOrders {
  /** Batches (steady clock) whose create was last held back for an order another desk made. */
  private readonly racedAt = new Map<string, number>();

  constructor(private readonly o: DuplicateOrdersOptions) {}

  /** Whether another desk was found ordering this batch's patients within RACED_MS. */
  private raced(batchId: string | null): boolean {
    if (batchId === null) return false;
    const at = this.racedAt.get(batchId);
    if (at === undefined) return false;
    if (this.o.steady.now() - at <= RACED_MS) return true;
    this.racedAt.delete(batchId);
    return false;
  }

  /**
   * For a review: per request, the orders it would repeat (after a read of the server's recent
   * orders), and per request the index of an earlier request of the same content, if any.
   * Throws when the server's orders cannot be read.
   */
  async review(
    requests: readonly CreateOrderRequest[],
    refillOf: readonly (string | null)[] = [],
  ): Promise<
    {
      orders: DuplicateRef[];
      sameAs: number | null;
      refill: { of: DuplicateRef[]; daysEarly: number } | null;
    }[]
  > {
    if (requests.length === 0) return [];
    const widest = Math.max(...requests.map((r) => duplicateWindowMs(r.daysSupply)));
    await this.o.recent.fresh(this.o.serverTime.now() - widest, CHECK_FRESH_MS);
    const now = this.o.serverTime.now();
    return requests.map((request, i) => {
      const sameAs = requests.findIndex((r, j) => j < i && sameOrderContent(r, request));
      const refill = this.refillOf(request, refillOf[i] ?? null, now);
      const exclude = new Set(refill?.of.map((o) => o.id));
      return {
        orders: this.heldBy(this.inMirror(request, exclude), now).map(refOf),
        sameAs: sameAs < 0 ? null : sameAs,
        refill: refill && { of: refill.of.map(refOf), daysEarly: refill.daysEarly },
      };
    });
  }

  /**
   * A refill chosen on Refills due, which showed `lastOrderId` as its supply's last order: the
   * orders of the supply up to that one (what it follows; later ones are repeats), and how early
   * it is. Null when that order is no longer part of a supply here (cancelled, say).
   */
  private refillOf(
    request: CreateOrderRequest,
    lastOrderId: string | null,
    now: number,
  ): { of: AppOrder[]; daysEarly: number } | null {
    if (lastOrderId === null) return null;
    const orders = this.inMirror(request, new Set());
    const last = orders.find((o) => o.id === lastOrderId);
    if (!last) return null;
    const upTo = Date.parse(last.createdAt);
    const supply = currentSupply(
      orders.filter((o) => o === last || Date.parse(o.createdAt) < upTo),
    );
    if (!supply) return null;
    return { of: supply.orders, daysEarly: daysEarly(supply.runsOutAt, now) };
  }

  /**
   * Of a patient's orders of one content, those that still supply them far enough ahead that a
   * new order would be early (supply.ts): what a new order would repeat. Empty when it is due.
   */
  private heldBy(orders: readonly AppOrder[], now: number): AppOrder[] {
    const supply = currentSupply(orders);
    return supply && daysEarly(supply.runsOutAt, now) > 0 ? supply.orders : [];
  }

  /**
   * Just before a create is sent (after a fresh read): an order the job's own earlier attempt,
   * whose outcome was never known, made after all (`adopt`: it committed late, so the create is
   * not sent twice), or what it would repeat (`held`): orders of the patient with the same
   * content within its supply that the user did not include, and creates of the same content
   * this desk is sending in another batch. Orders of its own batch were reviewed with it.
   * Throws when the server's orders cannot be read.
   */
  async beforeCreate(job: OrderJob): Promise<DuplicateVerdict> {
    const { request } = job.data;
    const now = this.o.serverTime.now();
    const firstSent = this.firstSent(job);
    const from = Math.min(now - duplicateWindowMs(request.daysSupply), firstSent.since);
    // A read made after the batch was submitted: what other desks sent meanwhile counts. While
    // another desk works through the batch's patients, a read made after this create was claimed.
    const notBefore = this.raced(job.batchId) ? (job.sentAt ?? job.createdAt) : job.createdAt;
    try {
      await this.o.recent.fresh(from, CHECK_FRESH_MS, notBefore);
    } catch (error) {
      // A server failing some reads: a read of the last half minute still tells what matters.
      if (!this.o.recent.covers(from) || this.o.recent.ageMs() > CHECK_STALE_MS) throw error;
    }
    const candidates = this.inMirror(request, new Set(job.data.allowDuplicateOf ?? []));
    const owners = this.o.store.jobs.owners(
      'order',
      candidates.map((c) => c.id),
    );
    if (job.data.earlierUnknown) {
      const own = candidates
        .filter(
          (c) =>
            !owners.has(c.id) &&
            Date.parse(c.createdAt) >= firstSent.since &&
            orderHoldsRequest(c, request),
        )
        .sort((a, b) => distance(a, firstSent.at) - distance(b, firstSent.at))[0];
      if (own) return { adopt: own };
    }
    // Creates of the same content this desk is sending (or has in doubt): those of the create's
    // own batch were reviewed with it, and an order no job owns yet may be what one of them made.
    const sameBatch = (other: StoredJob) => job.batchId !== null && other.batchId === job.batchId;
    const onTheirWay = this.o.store.jobs
      .ordersOnTheirWay(request.customer.sourceId)
      .filter((o) => o.id !== job.id)
      .map((o) => ({ job: o, data: this.jobData(o)! }))
      .filter((o) => sameOrderContent(o.data.request, request));
    const mineSince = Math.min(
      ...onTheirWay.filter((o) => sameBatch(o.job)).map((o) => this.firstSent(o.job).since),
    );
    const held = this.heldBy(
      candidates
        .filter((c) => job.batchId === null || owners.get(c.id)?.batchId !== job.batchId)
        .filter((c) => owners.has(c.id) || Date.parse(c.createdAt) < mineSince),
      now,
    ).map(refOf);
    // Another desk's order (no job of this desk made it): that desk may be working through the
    // same patients, so this batch's next creates each wait for a read begun after their claim.
    if (job.batchId !== null && held.some((h) => !owners.has(h.orderId!)))
      this.racedAt.set(job.batchId, this.o.steady.now());
    for (const other of onTheirWay)
      if (!sameBatch(other.job)) held.push({ orderId: null, createdAt: null, status: null });
    return { held };
  }

  /**
   * Orders that repeat an item of the batch: of the same patient and content as an item's order,
   * made from the batch's first send to LATE_ORDER_WINDOW_MS after its end, owned by no job of the
   * batch and not included on purpose. Of each pair, the later order is recorded as the possible
   * duplicate of the earlier (every desk names the same one). `read`: read the server's orders
   * of that time first (deep: late commits carry early dates). Returns how many are new.
   */
  async scanBatch(batchId: string, options: { read: boolean }): Promise<number> {
    const { store } = this.o;
    const items = store.batches.items(batchId).filter((i) => i.state === 'done' && i.orderId);
    const batch = store.batches.get(batchId);
    if (!batch || items.length === 0) {
      store.batches.markDuplicatesChecked(batchId);
      return 0;
    }
    const jobs = new Map(store.jobs.ofBatch(batchId).map((j) => [j.id, j]));
    const since = Math.min(
      ...items.map((i) => {
        return this.firstSent(jobs.get(i.jobId)).since;
      }),
    );
    if (options.read) await this.o.recent.read(since, { deep: true });
    const batchOrders = new Set(items.map((i) => i.orderId!));
    let found = 0;
    store.transaction(() => {
      for (const item of items) {
        const mine = store.orders.get(item.orderId!);
        if (!mine) continue;
        const data = this.jobData(jobs.get(item.jobId));
        const allowed = new Set(data?.allowDuplicateOf ?? []);
        // "Send anyway": a person sent it knowing it may repeat an order; never undone here.
        const meant = data?.allowDuplicates === true;
        const others = store.orders
          .ofPatientSince(item.request.customer.sourceId, since)
          .filter((o) => !batchOrders.has(o.id) && !allowed.has(o.id))
          .filter((o) => sameOrderContent(o, item.request));
        const owners = store.jobs.owners(
          'order',
          others.map((o) => o.id),
        );
        for (const other of others) {
          const later = laterOf(mine, other);
          const earlier = later === mine ? other : mine;
          // Ours, later, and the other desk's made at the same moment: ours is the one to go.
          const race =
            !meant &&
            later === mine &&
            !owners.has(other.id) &&
            Date.parse(mine.createdAt) - Date.parse(other.createdAt) <= SAME_MOMENT_MS;
          const pair = { orderId: later.id, of: earlier.id, batchId, seq: item.seq };
          if (store.orders.markPossibleDuplicate({ ...pair, autoCancel: race })) found++;
        }
      }
      store.batches.markDuplicatesChecked(batchId);
    });
    return found;
  }

  /** Orders in the mirror of the request's patient and content (not cancelled), bar `exclude`. */
  private inMirror(request: CreateOrderRequest, exclude: ReadonlySet<string>): AppOrder[] {
    return this.o.store.orders
      .ofPatientSince(request.customer.sourceId, Number.MIN_SAFE_INTEGER)
      .filter((o) => !exclude.has(o.id) && sameOrderContent(o, request));
  }

  /**
   * When a job was first sent, in the server's time, and the time before which nothing it sent
   * can have been made: recorded at its first claim, or guessed from when it was made.
   */
  private firstSent(job: Pick<StoredJob, 'createdAt' | 'firstSentServerAt'> | undefined): {
    at: number;
    since: number;
  } {
    const recorded = job?.firstSentServerAt;
    if (recorded != null) return { at: recorded, since: recorded - SERVER_TIME_MARGIN_MS };
    const made = job?.createdAt ?? this.o.steady.now();
    const at = made + (this.o.serverTime.now() - this.o.steady.now());
    return { at, since: at - UNKNOWN_TIME_MARGIN_MS };
  }

  /** The data of a job read from the store (a job the runner hands over has it parsed). */
  private jobData(job: StoredJob | undefined): OrderJobData | null {
    return job ? parseRow(OrderJobData, job.data, 'jobs', `id=${job.id}`) : null;
  }
}

const distance = (o: AppOrder, at: number) => Math.abs(Date.parse(o.createdAt) - at);

/** Of two orders, the one made later (the larger id on a tie): the same answer on every desk. */
function laterOf(a: AppOrder, b: AppOrder): AppOrder {
  const ta = Date.parse(a.createdAt);
  const tb = Date.parse(b.createdAt);
  if (ta !== tb) return ta > tb ? a : b;
  return a.id > b.id ? a : b;
}
