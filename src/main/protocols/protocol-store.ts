import type { JobsRepo } from '../jobs/jobs-repo';
import type { Db } from '../db/db';
import type { ProtocolsRepo } from './protocols-repo';

/**
 * The part of a connection's store that protocol work uses. The store itself (stores/local-store.ts)
 * sits above every repository, so the layers below it name only what they use.
 */
export interface ProtocolStore {
  db: Db;
  protocols: ProtocolsRepo;
  jobs: JobsRepo;
  /** One transaction, IMMEDIATE (nested calls become savepoints): writes across repositories. */
  transaction<T>(fn: () => T): T;
}
