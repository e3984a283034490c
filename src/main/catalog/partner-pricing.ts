import { z } from 'zod';
import { PartnerPricing, type PricingTermsView } from '@shared/pricing-views';
import type { ApiClient } from '../api/client';
import type { Clock } from '../clock';
import { CorruptRowError, SYNC_KEYS } from '../db';
import type { SyncStateRepo } from '../db/sync-state-repo';

/** The stored copy: the terms, and when they were read (epoch ms, local clock). */
const StoredPricing = PartnerPricing.extend({ readAt: z.int().min(0) });
export type StoredPricing = z.infer<typeof StoredPricing>;

type Store = { syncState: SyncStateRepo };

/**
 * The partner's pricing terms as last read on this connection, or null when they never were.
 * A stored copy that no longer parses counts as never read: estimates then say the total is
 * unknown, and the next read replaces it.
 */
export function storedPricing(store: Store): StoredPricing | null {
  try {
    return store.syncState.get(SYNC_KEYS.partnerPricing, StoredPricing);
  } catch (error) {
    if (error instanceof CorruptRowError) return null;
    throw error;
  }
}

/**
 * Keeps the pricing terms of partner settings the server answered (at connect, by a sync, or
 * when the Settings screen reads or saves them). True when estimates change.
 */
export function keepPricing(store: Store, settings: PartnerPricing, now: number): boolean {
  const before = storedPricing(store);
  const next: StoredPricing = {
    discount: settings.discount,
    discountValue: settings.discountValue,
    readAt: now,
  };
  store.syncState.set(SYNC_KEYS.partnerPricing, next);
  return before?.discount !== next.discount || before?.discountValue !== next.discountValue;
}

export interface PricingReadOptions {
  store: Store;
  client: Pick<ApiClient, 'getPartnerSettings'>;
  clock: Clock;
}

/** Reads the partner settings and keeps their pricing terms; throws the client's error. */
export async function pullPricing(options: PricingReadOptions): Promise<{ changed: boolean }> {
  const settings = await options.client.getPartnerSettings();
  return { changed: keepPricing(options.store, settings, options.clock.now()) };
}

/**
 * The terms estimates price with: the stored copy; when there is none yet and the server can be
 * reached, they are read first. Null when they still cannot be had (offline, a server error,
 * which is logged): estimates then say the total is unknown.
 */
export async function ensurePricing(
  options: PricingReadOptions & { online: boolean; log(line: string): void },
): Promise<StoredPricing | null> {
  const known = storedPricing(options.store);
  if (known || !options.online) return known;
  try {
    await pullPricing(options);
  } catch (error) {
    options.log(
      `the partner settings could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return storedPricing(options.store);
}

/** The stored terms as the window sees them. */
export function pricingTermsView(pricing: StoredPricing | null): PricingTermsView {
  if (!pricing) return { known: false };
  return {
    known: true,
    discount: pricing.discount,
    discountValue: pricing.discountValue,
    readAt: new Date(pricing.readAt).toISOString(),
  };
}
