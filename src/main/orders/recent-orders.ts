import { z } from 'zod';
import type { AppOrder } from '@shared/api';
import type { ApiClient } from '../api/client';
import type { Clock } from '../clock';
import { SYNC_KEYS } from '../db';
import type { OrderStore } from './order-store';
import type { OrderUpsert } from './orders-repo';

export interface RecentOrdersOptions {
  store: OrderStore;
  client: Pick<ApiClient, 'listOrders'>;
  /** The server's time: what the orders' createdAt are compared with. */
  serverTime: Clock;
  /** The steady clock: how old the last read is. */
  steady: Clock;
  /** Called for every order read whose status changed (to emit order-status). */
  onOrderChange?: (change: OrderUpsert) => void;
  /** A walk longer than this is not finished (nothing is known). Default 200 pages of 100. */
  maxPages?: number;
}

/** Orders made this long before the last read began are read again by the next one. */
export const READ_OVERLAP_MS = 2_000;
const PAGE = 100;

const Coverage = z.object({ from: z.number(), readAt: z.number() });

/** A read under way: how far back it goes, and when its walk began (null: still waiting). */
interface Reading {
  from: number;
  began: number | null;
  promise: Promise<void>;
}

type Coverage = z.infer<typeof Coverage>;

/**
 * The server's recent orders, other desks' included, kept in the orders mirror: what a new order
 * is checked against so that a patient is not shipped twice. A read walks list orders newest
 * first back to where the mirror is known complete (the last read's start, less an overlap), or
 * to `from` the first time; the mirror then holds every order made since `from`
 * (SYNC_KEYS.recentOrders). Concurrent callers share a read.
 */
export class RecentOrders {
  private reading: Reading | null = null;
  /** When (steady clock) the last complete read of this run began. */
  private readBegan: number | null = null;
  /** List requests made, for the benchmarks. */
  requests = 0;

  constructor(private readonly o: RecentOrdersOptions) {}

  /**
   * Makes sure the mirror holds every order made since `from` (server epoch ms) as read by a walk
   * that began no more than `maxAgeMs` ago, and not before `notBefore` (steady clock: a decision
   * taken then, such as submitting a batch, is checked against a read made after it); reads when
   * not. A read older than half that is renewed without being waited for, so that checks in a
   * row rarely wait.
   */
  async fresh(from: number, maxAgeMs: number, notBefore = -Infinity): Promise<void> {
    const age = this.ageMs();
    if (this.covers(from) && age <= maxAgeMs && this.readBegan! >= notBefore) {
      if (age > maxAgeMs / 2 && !this.reading) this.read(from).catch(() => undefined);
      return;
    }
    await this.read(from, { notBefore });
  }

  /**
   * Reads the orders made since the mirror was last known complete (or since `from`); `deep`: every
   * order made since `from`, whatever an earlier read covered (orders whose commit came late
   * carry an earlier createdAt than the read that missed them). A read under way is shared when it
   * goes back far enough and began (or begins) no earlier than `notBefore` (steady clock). Throws
   * the client's error when a page cannot be read: nothing is then known beyond what earlier reads
   * knew.
   */
  read(from: number, options: { deep?: boolean; notBefore?: number } = {}): Promise<void> {
    const current = this.reading;
    const notBefore = options.notBefore ?? -Infinity;
    const shared =
      current &&
      current.from <= from &&
      !options.deep &&
      (current.began === null || current.began >= notBefore);
    if (shared) return current.promise;
    const after = current ? current.promise.catch(() => undefined) : Promise.resolve();
    const entry: Reading = { from, began: null, promise: Promise.resolve() };
    entry.promise = after
      .then(() => {
        entry.began = this.o.steady.now();
        return this.walk(from, options.deep ?? false, entry.began);
      })
      .finally(() => {
        if (this.reading === entry) this.reading = null;
      });
    this.reading = entry;
    return entry.promise;
  }

  /** How long ago (steady clock) the last complete read of this run began; Infinity: none yet. */
  ageMs(): number {
    return this.readBegan === null ? Infinity : this.o.steady.now() - this.readBegan;
  }

  /**
   * Whether the mirror is known to hold every server order made since `from` (up to shortly before
   * the last read began: what a read then brings is the rest).
   */
  covers(from: number): boolean {
    const c = this.coverage();
    return c !== null && c.from <= from;
  }

  private coverage(): Coverage | null {
    return this.o.store.syncState.get(SYNC_KEYS.recentOrders, Coverage);
  }

  private async walk(from: number, deep: boolean, began: number): Promise<void> {
    const { store, client } = this.o;
    const startedAt = this.o.serverTime.now();
    const known = this.coverage();
    // What is already held needs no reading again: back to the last read's start, less the overlap.
    const stopAt =
      known !== null && known.from <= from && !deep
        ? Math.max(from, known.readAt - READ_OVERLAP_MS)
        : from;
    const maxPages = this.o.maxPages ?? 200;
    let cursor: string | null = null;
    for (let page = 0; ; page++) {
      if (page >= maxPages)
        throw new Error(
          `The server's recent orders could not be read to the end (more than ${maxPages} pages).`,
        );
      const result: { orders: AppOrder[]; cursor: string | null } = await client.listOrders({
        limit: PAGE,
        ...(cursor === null ? {} : { cursor, direction: 'next' as const }),
      });
      this.requests++;
      // What the mirror holds as it is (its updatedAt unchanged: this desk's own orders of the
      // batch under way, mostly) is not merged again.
      const known = store.orders.updatedAtOf(result.orders.map((o) => o.id));
      const recent = result.orders.filter(
        (o) => Date.parse(o.createdAt) >= stopAt && known.get(o.id) !== Date.parse(o.updatedAt),
      );
      for (const change of store.orders.upsertMany(recent, 'pulled'))
        if (change.statusChanged) this.o.onOrderChange?.(change);
      const oldest = result.orders.at(-1);
      cursor = result.cursor;
      if (!cursor || !oldest || Date.parse(oldest.createdAt) < stopAt) break;
    }
    // Held for sure: what this walk read, joined to what was held before when they meet.
    const joined =
      known !== null && stopAt >= known.from && stopAt <= known.readAt - READ_OVERLAP_MS;
    store.syncState.set(SYNC_KEYS.recentOrders, {
      from: joined ? known.from : stopAt,
      readAt: startedAt,
    } satisfies Coverage);
    this.readBegan = began;
  }
}
