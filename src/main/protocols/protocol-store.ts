import type { JobsRepo } from '../jobs/jobs-repo';
import type { Db } from '../db/db';
import type { ProtocolsRepo } from './protocols-repo';
import type { UndoHistory } from './undo-history';

/**
 * The part of a connection's store that protocol work uses. The store itself (stores/local-store.ts)
 * sits above every repository, so the layers below it name only what they use.
 */
export interface ProtocolStore {
  db: Db;
  protocols: ProtocolsRepo;
  jobs: JobsRepo;
  /** The undo history of the person's changes to protocols (undo.ts). */
  undo: UndoHistory;
  /** One transaction, IMMEDIATE (nested calls become savepoints): writes across repositories. */
  transaction<T>(fn: () => T): T;
}
