import type { AppOrder, CreateOrderRequest } from '@shared/api';
import type { ApiClient } from '../api/client';
import type { JobsRepo } from '../jobs/jobs-repo';
import { orderHoldsRequest } from './order-content';
import type { OrdersRepo } from './orders-repo';

/** The store's parts a reconciliation reads: which orders are claimed by a job or made here. */
type ReconcileStore = { jobs: Pick<JobsRepo, 'owners'>; orders: Pick<OrdersRepo, 'createdHere'> };

/** A create whose outcome is unknown: what it sent, and when, in the server's time. */
export interface InDoubtCreate {
  id: number;
  /** When it was sent (server epoch ms): the best match is the order made nearest it. */
  sentAt: number;
  /** Server time before which it cannot have made its order. */
  since: number;
  request: CreateOrderRequest;
}

/**
 * Reconciliation of creates whose outcome is unknown (docs/decisions.md, "Creates without
 * idempotency keys"). The API has no idempotency key, so the only way to know whether a create
 * committed is to look for the order it would have made: list orders newest first (one walk for
 * every in-doubt create) back to the earliest send, in the server's time, less a margin, and match
 * on every field the request sent.
 */
export interface ReconcileDeps {
  store: ReconcileStore;
  client: Pick<ApiClient, 'listOrders'>;
  /** A walk longer than this proves nothing (the creates stay in doubt). Default 200 pages. */
  maxPages?: number;
  log: (line: string) => void;
}

export interface ReconcileResult<T extends InDoubtCreate> {
  /** Creates whose order was found, with it. */
  found: { item: T; order: AppOrder }[];
  /**
   * Creates the server shows no order for: they did not commit, to be sent again. Empty when an
   * order in the window could not be read (it may be theirs): they stay in doubt until it can.
   */
  notFound: T[];
  /** List requests made. */
  pages: number;
}

export const PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 200;

/** Whether `order` may be what `request` made: it holds every field sent, made at or after `since`. */
export function orderMatchesRequest(
  order: AppOrder,
  request: CreateOrderRequest,
  since: number,
): boolean {
  return Date.parse(order.createdAt) >= since && orderHoldsRequest(order, request);
}

/** Ids among `ids` that some job already owns or that the mirror holds as created here. */
function claimedIds(store: ReconcileStore, ids: readonly string[]): Set<string> {
  const claimed = new Set(store.jobs.owners('order', ids).keys());
  for (const id of store.orders.createdHere(ids)) claimed.add(id);
  return claimed;
}

/**
 * Reads the server once for all `items` (in doubt, their grace period over) and pairs each with
 * the order its create made, or finds that there is none. Throws (an ApiClientError) when the
 * walk could not be completed: then nothing is known and every item stays in doubt.
 */
export async function reconcileInDoubt<T extends InDoubtCreate>(
  deps: ReconcileDeps,
  items: readonly T[],
): Promise<ReconcileResult<T>> {
  if (items.length === 0) return { found: [], notFound: [], pages: 0 };
  const since = Math.min(...items.map((i) => i.since));
  const maxPages = deps.maxPages ?? DEFAULT_MAX_PAGES;

  const candidates: AppOrder[] = [];
  let unreadable = 0;
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    if (pages >= maxPages) {
      throw new Error(
        `Reconciliation stopped after ${pages} pages of orders without reaching the time of the first send.`,
      );
    }
    const page: Awaited<ReturnType<ApiClient['listOrders']>> = await deps.client.listOrders({
      limit: PAGE_SIZE,
      direction: 'next',
      ...(cursor === null ? {} : { cursor }),
    });
    pages++;
    unreadable += page.skipped.length;
    candidates.push(...page.orders.filter((o) => Date.parse(o.createdAt) >= since));
    const oldest = page.orders.at(-1);
    if (!oldest || Date.parse(oldest.createdAt) < since || page.cursor === null) break;
    cursor = page.cursor;
  }

  const claimed = claimedIds(
    deps.store,
    candidates.map((o) => o.id),
  );
  const free = candidates.filter((o) => !claimed.has(o.id));
  const taken = new Set<string>();
  const found: ReconcileResult<T>['found'] = [];
  const notFound: T[] = [];
  for (const item of items) {
    const at = item.sentAt;
    const matches = free.filter(
      (o) => !taken.has(o.id) && orderMatchesRequest(o, item.request, item.since),
    );
    // Identical requests (two protocols with the same content) may match several orders; each
    // item takes a distinct one, the one created closest to its own send.
    const best = matches.sort(
      (a, b) => Math.abs(Date.parse(a.createdAt) - at) - Math.abs(Date.parse(b.createdAt) - at),
    )[0];
    if (best) {
      taken.add(best.id);
      found.push({ item, order: best });
    } else if (unreadable === 0) {
      notFound.push(item);
    }
  }
  deps.log(
    `reconciled ${items.length} in-doubt order create(s) with ${pages} list request(s): ` +
      `${found.length} found, ${notFound.length} to resend` +
      (unreadable > 0 ? `; ${unreadable} order(s) could not be read, so none is resent` : ''),
  );
  return { found, notFound, pages };
}
