import { z } from 'zod';
import type { AppOrder, ProductRead } from '@shared/api';
import type { ApiClient, SkippedItem } from '../api/client';
import { describeSkipped } from '../api/http';
import { pullPricing } from '../catalog/partner-pricing';
import type { Clock } from '../clock';
import type { OrderUpsert } from '../orders/orders-repo';
import { SYNC_KEYS } from '../db';
import type { LocalStore } from '../stores';

export interface MirrorPullOptions {
  store: LocalStore;
  client: Pick<
    ApiClient,
    'getPartnerSettings' | 'listProducts' | 'listShippingMethods' | 'listProtocols' | 'listOrders'
  >;
  clock: Clock;
  /** The server's time: the window of recent orders ends at it. Default `clock`. */
  serverTime?: Clock;
  /** What to pull; default everything. */
  parts?: Partial<Record<MirrorPart, boolean>>;
  /** The product cursor is moved back this far (ties and late commits at the cursor). Default 60 s. */
  productOverlapMs?: number;
  /** Orders created within this window are pulled. Default 30 days. */
  ordersWindowMs?: number;
  /** At most this many pages of 100 orders. Default 20. */
  ordersMaxPages?: number;
  /** Called for every pulled order whose status changed (to emit order-status). */
  onOrderChange?: (change: OrderUpsert) => void;
  /** Called for each list item that could not be read and was left out (for the report). */
  onSkipped?: (description: string) => void;
}

export type MirrorPart = 'products' | 'shippingMethods' | 'protocols' | 'orders' | 'pricing';

/** What a pull changed in the mirror. */
export interface PullReport {
  products: { fetched: number; changed: number };
  shippingMethods: { changed: boolean } | null;
  protocols: {
    inserted: number;
    refreshed: number;
    /** The server copy of a protocol with local changes moved (the draft is kept). */
    serverUpdated: number;
    removed: number;
    conflicts: number;
  } | null;
  orders: { fetched: number; changed: number; statusChanged: number } | null;
  /** The partner settings prices depend on (discount), read again. */
  pricing: { changed: boolean } | null;
  /** Items the server sent that could not be read: left out, the rest applied. */
  skipped: string[];
}

const PAGE = 100;
const DAY = 86_400_000;

/**
 * Pulls the mirror: products (incremental), shipping methods (replaced), protocols (a complete
 * walk, which also finds those deleted on the server), recent orders, and the partner settings
 * prices depend on (last, so that a server that fails to answer them still lets the rest be
 * pulled). Each part stops at its first failed request and throws it: what was pulled before is
 * kept, cursors move only after a complete part.
 */
export async function pullMirror(options: MirrorPullOptions): Promise<PullReport> {
  const want = (part: MirrorPart) => options.parts?.[part] ?? true;
  const skipped: string[] = [];
  const o: MirrorPullOptions = {
    ...options,
    onSkipped: (description) => {
      skipped.push(description);
      options.onSkipped?.(description);
    },
  };
  return {
    products: want('products') ? await pullProducts(o) : { fetched: 0, changed: 0 },
    shippingMethods: want('shippingMethods') ? await pullShippingMethods(o) : null,
    protocols: want('protocols') ? await pullProtocols(o) : null,
    orders: want('orders') ? await pullOrders(o) : null,
    pricing: want('pricing') ? await pullPricing(o) : null,
    skipped,
  };
}

const reportSkipped = (options: MirrorPullOptions, kind: string, items: readonly SkippedItem[]) => {
  for (const item of items) options.onSkipped?.(describeSkipped(kind, item));
};

/**
 * Products updated after the cursor (the newest updatedAt seen) minus an overlap: updatedAfter is
 * strict and timestamps can tie, so a product committed later at the cursor's very instant would
 * be missed without it. The overlap re-reads a few products; only those that differ are written.
 * A product that could not be read holds the cursor where it was, so that it is read again.
 */
export async function pullProducts(options: MirrorPullOptions) {
  const { store, client } = options;
  const overlapMs = options.productOverlapMs ?? 60_000;
  const cursor = store.syncState.get(SYNC_KEYS.productsUpdatedAfter, z.string());
  const updatedAfter =
    cursor === null ? undefined : new Date(Date.parse(cursor) - overlapMs).toISOString();
  const fetched: ProductRead[] = [];
  let skipped = 0;
  let page: string | null = null;
  do {
    const result: Awaited<ReturnType<ApiClient['listProducts']>> = await client.listProducts({
      limit: PAGE,
      ...(updatedAfter ? { updatedAfter } : {}),
      ...(page ? { cursor: page, direction: 'next' as const } : {}),
    });
    fetched.push(...result.products);
    skipped += result.skipped.length;
    reportSkipped(options, 'product', result.skipped);
    page = result.cursor;
  } while (page);
  const known = store.products.byIds(fetched.map((p) => p.id));
  const changed = fetched.filter((p) => JSON.stringify(known.get(p.id)) !== JSON.stringify(p));
  const newest = fetched.reduce<string | null>(
    (max, p) => (max === null || Date.parse(p.updatedAt) > Date.parse(max) ? p.updatedAt : max),
    cursor,
  );
  store.transaction(() => {
    if (changed.length > 0) store.products.upsertMany(changed);
    if (newest !== null && skipped === 0)
      store.syncState.set(SYNC_KEYS.productsUpdatedAfter, newest);
  });
  return { fetched: fetched.length, changed: changed.length };
}

/** The shipping methods: a short list, replaced when it differs. */
export async function pullShippingMethods(options: MirrorPullOptions) {
  const { store, client, clock } = options;
  const { shippingMethods: methods, skipped } = await client.listShippingMethods();
  reportSkipped(options, 'shipping method', skipped);
  const changed = JSON.stringify(store.shippingMethods.list()) !== JSON.stringify(methods);
  store.transaction(() => {
    if (changed) store.shippingMethods.replaceAll(methods);
    store.syncState.set(SYNC_KEYS.shippingMethodsLastPull, clock.now());
  });
  return { changed };
}

/**
 * Every server protocol, 100 per page, each page upserted in one transaction. After a complete
 * walk, the protocols known locally before it began (by server id) that it did not see are gone
 * from the server: markDeletedOnServer removes them, or records a conflict when edited locally.
 * A protocol created during the walk is neither known before nor missed, so none is removed
 * wrongly; a walk that fails half-way removes nothing. A protocol that could not be read is kept
 * as it is here (its id counts as seen), and one whose id could not be read either makes the
 * walk prove no deletion at all.
 */
export async function pullProtocols(options: MirrorPullOptions) {
  const { store, client, clock } = options;
  const report = { inserted: 0, refreshed: 0, serverUpdated: 0, removed: 0, conflicts: 0 };
  const knownBefore = store.protocols.serverIds();
  const seen = new Set<string>();
  let everyIdSeen = true;
  let page: string | null = null;
  do {
    const result: Awaited<ReturnType<ApiClient['listProtocols']>> = await client.listProtocols({
      limit: PAGE,
      ...(page ? { cursor: page, direction: 'next' as const } : {}),
    });
    for (const p of result.protocols) seen.add(p.id);
    for (const item of result.skipped) {
      if (item.id === null) everyIdSeen = false;
      else seen.add(item.id);
    }
    reportSkipped(options, 'protocol', result.skipped);
    for (const { change } of store.protocols.upsertManyFromServer(result.protocols)) {
      if (change === 'inserted') report.inserted++;
      else if (change === 'refreshed') report.refreshed++;
      else if (change === 'server-updated') report.serverUpdated++;
    }
    page = result.cursor;
  } while (page);
  store.transaction(() => {
    for (const serverId of everyIdSeen ? knownBefore : []) {
      if (seen.has(serverId)) continue;
      const result = store.protocols.markDeletedOnServer(serverId);
      if (result === 'removed') report.removed++;
      else if (result === 'conflict') report.conflicts++;
    }
    store.syncState.set(SYNC_KEYS.protocolsLastFullPull, clock.now());
  });
  return report;
}

/**
 * Recent orders, newest first, until one is older than the window or the page budget is spent.
 * Stored with source 'pulled', merged by mergeOrder (an exact status is not lost to a coarse read).
 */
export async function pullOrders(options: MirrorPullOptions) {
  const { store, client, clock } = options;
  const from = (options.serverTime ?? clock).now() - (options.ordersWindowMs ?? 30 * DAY);
  const maxPages = options.ordersMaxPages ?? 20;
  const report = { fetched: 0, changed: 0, statusChanged: 0 };
  let page: string | null = null;
  for (let n = 0; n < maxPages; n++) {
    const result: { orders: AppOrder[]; cursor: string | null; skipped: SkippedItem[] } =
      await client.listOrders({
        limit: PAGE,
        ...(page ? { cursor: page, direction: 'next' as const } : {}),
      });
    reportSkipped(options, 'order', result.skipped);
    const recent = result.orders.filter((o) => Date.parse(o.createdAt) >= from);
    report.fetched += recent.length;
    for (const change of store.orders.upsertMany(recent, 'pulled')) {
      if (change.changed) report.changed++;
      if (change.statusChanged) {
        report.statusChanged++;
        options.onOrderChange?.(change);
      }
    }
    page = result.cursor;
    if (!page || recent.length < result.orders.length) break;
  }
  store.syncState.set(SYNC_KEYS.ordersLastPull, clock.now());
  return report;
}
