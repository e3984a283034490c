import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { restoreLostChanges } from '../protocols/change-queue';
import { storeFaultOf } from '../db/store-faults';
import { recoverStoreFile, settleStoreFile } from '../db/store-recovery';
import { createLocalStore, type LocalStore, type LocalStoreOptions } from './local-store';
import { putStoreNote, takeStoreNote } from './store-notes';

/*
 * A connection's damaged store recovered (docs/architecture.md, "A damaged store"): the recovery
 * of any store file (db/store-recovery.ts) with a connection store's tables, its repairs (a
 * protocol whose pending change lost its job gets one in doubt) and the record of what happened,
 * kept in the new store until the app has told the user.
 */

/** What a recovery did, as kept in the recovered store until the app has told the user. */
export const RecoveryRecord = z.object({
  id: z.string(),
  at: z.int(),
  cause: z.enum(['damaged', 'not-a-database']),
  keptAt: z.string(),
  storeFile: z.string(),
  recovered: z.object({
    protocols: z.int(),
    unsentChanges: z.int(),
    unfinishedBatches: z.int(),
    orders: z.int(),
  }),
  unreadable: z.int(),
  /** Tables of which nothing could be read. */
  lostTables: z.array(z.string()),
});
export type RecoveryRecord = z.infer<typeof RecoveryRecord>;

/** A connection store's tables, parents before children (foreign keys). */
export const CONNECTION_TABLES = [
  'products',
  'shipping_methods',
  'sync_state',
  'protocols',
  'batches',
  'jobs',
  'orders',
  'order_status_changes',
  'possible_duplicates',
  // The undo history: its drafts are the person's own work.
  'undo_steps',
  // The activity record: its rows (each fills its activity_patients) and its retention anchor.
  'activity_retention',
  'activity',
  // Left from the single-file layout; copied so that nothing readable is dropped.
  'connections',
  'settings',
] as const;

/** The key of the connection store's (otherwise unused) settings table holding the record. */
const RECORD_KEY = 'store.recovery';

/**
 * Opens a connection's store, checked with quick_check. A damaged one is recovered first (see
 * recoverConnectionStore); an error that is not damage (a full or read-only disk, a newer
 * schema) is thrown as is.
 */
export function openConnectionStore(file: string, options: LocalStoreOptions & { now(): number }) {
  settleStoreFile(file, options.now());
  try {
    return createLocalStore(file, { ...options, quickCheck: true });
  } catch (error) {
    if (storeFaultOf(error) !== 'damaged') throw error;
    recoverConnectionStore(file, error, options);
    return createLocalStore(file, { ...options, quickCheck: true });
  }
}

/**
 * Recovers a connection's damaged store (closed by the caller) in place: the rows that can be
 * read, and for each protocol whose pending change lost its job, a job in doubt (the server is
 * read before it is sent again). The record of what happened stays in the new store until
 * takeRecoveryRecord() hands it over.
 */
export function recoverConnectionStore(
  file: string,
  cause: unknown,
  options: LocalStoreOptions & { now(): number },
): void {
  const { clock, key } = options;
  recoverStoreFile(file, cause, {
    now: options.now(),
    tables: CONNECTION_TABLES,
    ...(key ? { key } : {}),
    create: (temp) =>
      createLocalStore(temp, { ...(clock ? { clock } : {}), ...(key ? { key } : {}) }),
    finish: (fresh, salvaged) => {
      fresh.transaction(() => {
        restoreLostChanges({
          db: fresh.db,
          clock: clock ?? { now: options.now },
          jobs: fresh.jobs,
        });
        const record: RecoveryRecord = {
          id: randomUUID(),
          at: options.now(),
          cause: salvaged.cause,
          keptAt: salvaged.keptAt,
          storeFile: file,
          recovered: {
            protocols: fresh.protocols.count(),
            unsentChanges: unsentChanges(fresh),
            unfinishedBatches: fresh.batches.list().filter((b) => b.state !== 'done').length,
            orders: fresh.orders.count({}),
          },
          unreadable: salvaged.unreadable,
          lostTables: salvaged.lostTables.filter((t) => t !== 'connections' && t !== 'settings'),
        };
        putStoreNote(fresh, RECORD_KEY, record);
      });
    },
  });
}

/**
 * Protocols with a change the server has not confirmed (pending, or in conflict): what the user
 * made here and would lose with the store.
 */
export const unsentChanges = (store: LocalStore): number =>
  store.protocols.list({ syncStates: ['pending', 'conflict'], includeDeleted: true, limit: 1 })
    .total;

/**
 * The record of a recovery this store came from, if the app has not told the user yet; `told`
 * is called with it and the record is removed with what `told` wrote (a crash before tells again,
 * which notices make harmless: they are kept by id).
 */
export function takeRecoveryRecord(
  store: LocalStore,
  told: (record: RecoveryRecord) => void,
): void {
  takeStoreNote(store, RECORD_KEY, RecoveryRecord, told);
}
