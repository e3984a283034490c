import type { AppOrder } from '../../shared/api';
import type { BatchItem, LocalStore } from '../store';

interface Pending {
  batchId: string;
  seq: number;
  order: AppOrder;
  claimNext: (() => BatchItem | null) | undefined;
  done: (error: unknown, next: BatchItem | null) => void;
}

/**
 * Records created orders (BatchesRepo.recordCreated) in groups: every create answered within one
 * turn of the event loop is written in one transaction, which saves a commit per item. Safe to
 * defer: until its commit the item stays 'sending', which a crash turns into 'in doubt', and
 * reconciliation then finds its order on the server, so nothing is resent.
 *
 * The same transaction also claims the next item of each recorded one's worker (`claimNext`):
 * one commit per item instead of two (a commit, with its share of WAL checkpoints, costs more
 * than the rest of an item's store work). The claim is still durable before that item is sent.
 */
export class CreatedRecorder {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly store: LocalStore) {}

  /**
   * Resolves once the item is recorded, with the item `claimNext` claimed in the same
   * transaction (null when it claimed none or failed); rejects with the store's error when the
   * item could not be recorded (then nothing is claimed for it).
   */
  record(
    batchId: string,
    seq: number,
    order: AppOrder,
    claimNext?: () => BatchItem | null,
  ): Promise<BatchItem | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        batchId,
        seq,
        order,
        claimNext,
        done: (e, next) => (e === null ? resolve(next) : reject(e)),
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    const outcomes = new Map<Pending, { error: unknown; next: BatchItem | null }>();
    try {
      this.store.transaction(() => {
        for (const p of queue) {
          try {
            this.store.batches.recordCreated(p.batchId, p.seq, p.order);
          } catch (error) {
            outcomes.set(p, { error, next: null }); // its savepoint is rolled back; the others stand
            continue;
          }
          let next: BatchItem | null = null;
          try {
            // One write statement: if it fails, SQLite undoes it alone and the records stand.
            if (p.claimNext) next = p.claimNext();
          } catch {
            // Nothing claimed: the run's scheduler claims again (and meets the error there).
          }
          outcomes.set(p, { error: null, next });
        }
      });
    } catch (error) {
      for (const p of queue) outcomes.set(p, { error, next: null }); // the commit failed: none is recorded
    }
    for (const p of queue) {
      const outcome = outcomes.get(p) ?? { error: null, next: null };
      p.done(outcome.error, outcome.next);
    }
  }
}
