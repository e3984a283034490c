import type { AppOrder } from '../../shared/api';
import type { LocalStore } from '../store';

interface Pending {
  batchId: string;
  seq: number;
  order: AppOrder;
  done: (error: unknown) => void;
}

/**
 * Records created orders (BatchesRepo.markCreated) in groups: every create answered within one
 * turn of the event loop is written in one transaction, which saves a commit per item. Safe to
 * defer: until its commit the item stays 'sending', which a crash turns into 'in doubt', and
 * reconciliation then finds its order on the server, so nothing is resent.
 */
export class CreatedRecorder {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly store: LocalStore) {}

  /** Resolves once the item is recorded; rejects with the store's error when it could not be. */
  record(batchId: string, seq: number, order: AppOrder): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batchId, seq, order, done: (e) => (e === null ? resolve() : reject(e)) });
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
    const outcomes = new Map<Pending, unknown>();
    try {
      this.store.transaction(() => {
        for (const p of queue) {
          try {
            this.store.batches.markCreated(p.batchId, p.seq, p.order);
            outcomes.set(p, null);
          } catch (error) {
            outcomes.set(p, error); // its savepoint is rolled back; the others stand
          }
        }
      });
    } catch (error) {
      for (const p of queue) outcomes.set(p, error); // the commit failed: none is recorded
    }
    for (const p of queue) p.done(outcomes.get(p) ?? null);
  }
}
