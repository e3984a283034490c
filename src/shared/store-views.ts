import { z } from 'zod';

/**
 * What the app tells the user about the files it keeps on this computer: a damaged store it
 * recovered (shown until dismissed), a disk that refuses writes (shown while it lasts), and what
 * removing a saved connection would delete.
 */

const Count = z.int().min(0);

/** A damaged store was found, kept (moved aside) and what could be read recovered into a new one. */
export const StoreNotice = z.object({
  id: z.string(),
  kind: z.literal('store-recovered'),
  /** When it was found (ISO 8601). */
  at: z.string(),
  /** The connection whose store it was; null for the app's own list of connections and settings. */
  connectionLabel: z.string().nullable(),
  /** 'damaged': SQLite found it malformed; 'not-a-database': the file was something else. */
  cause: z.enum(['damaged', 'not-a-database']),
  /** Where the damaged file is now: kept, never deleted. */
  keptAt: z.string(),
  /** The new store the readable rows went into. */
  storeFile: z.string(),
  /** What the new store holds. */
  recovered: z.object({
    protocols: Count,
    unsentChanges: Count,
    unfinishedBatches: Count,
    orders: Count,
  }),
  /** Rows that could not be read (lost from the new store, still in the kept file). */
  unreadable: Count,
});
export type StoreNotice = z.infer<typeof StoreNotice>;

/** The disk under the data folder refuses writes now (null: it takes them). */
export const StorageProblem = z
  .object({
    fault: z.enum(['full', 'read-only', 'io']),
    /** The folder Order Desk keeps its data in. */
    dataDir: z.string(),
    /** When it was first seen (ISO 8601). */
    since: z.string(),
    message: z.string(),
  })
  .nullable();
export type StorageProblem = z.infer<typeof StorageProblem>;

/** What removing a saved connection deletes from this computer. */
export const ConnectionRemoval = z.object({
  id: z.string(),
  label: z.string(),
  /** Its store file (deleted with it), and its size in bytes (0 when there is none yet). */
  storeFile: z.string(),
  bytes: Count,
  protocols: Count,
  /** Protocol changes not yet confirmed by its server: they never reach it if it is removed. */
  unsentChanges: Count,
  batches: Count,
  /** Batches not finished: their remaining orders are never sent. */
  unfinishedBatches: Count,
  orders: Count,
});
export type ConnectionRemoval = z.infer<typeof ConnectionRemoval>;
