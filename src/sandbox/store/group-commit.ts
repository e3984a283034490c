import type { Db } from './db';

interface Queued {
  write: () => void;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: the writes queued during one turn of the event loop run in one transaction at
 * the end of that turn, and only then does each caller learn that its write committed. A request
 * is still answered only after its write is durable; what the group shares is the transaction
 * (one commit instead of one each) and the moment the answers are sent, back to back.
 *
 * One write that throws must not fail the others: the group is then replayed one transaction
 * per write, so each caller gets its own outcome, exactly as without grouping.
 */
export class GroupCommit {
  private queue: Queued[] = [];
  private readonly runAll: (writes: readonly Queued[]) => void;
  private readonly runOne: (write: () => void) => void;

  constructor(db: Db) {
    // Built once: better-sqlite3 prepares BEGIN/COMMIT each time a transaction function is made.
    this.runAll = db.transaction((writes: readonly Queued[]) => {
      for (const q of writes) q.write();
    });
    this.runOne = db.transaction((write: () => void) => write());
  }

  /** Resolves once `write` has committed; rejects with its error when it threw (nothing of it is kept). */
  run(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.queue.length === 0) setImmediate(() => this.flush());
      this.queue.push({ write, resolve, reject });
    });
  }

  private flush(): void {
    const writes = this.queue;
    this.queue = [];
    try {
      this.runAll(writes);
    } catch {
      for (const q of writes) {
        try {
          this.runOne(q.write);
          q.resolve();
        } catch (error) {
          q.reject(error);
        }
      }
      return;
    }
    for (const q of writes) q.resolve();
  }
}
