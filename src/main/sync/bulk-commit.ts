import type { AppOrder, CreateOrderRequest } from '../../shared/api';
import type { Clock } from '../clock';
import type { BatchItem, LocalStore } from '../store';
import type { Timers } from './timers';

/**
 * What sending a batch item needs to know of it: which it is, how often it was tried (for the
 * backoff) and its frozen request. A claimed item; a full BatchItem is one too.
 */
export type SendItem = Pick<BatchItem, 'batchId' | 'seq' | 'attempts' | 'request'>;

/** Items claimed in one statement, and created orders recorded in one commit, at the most. */
export const CLAIM_AHEAD = 32;
/** The longest a created order waits to be recorded (what progress shows lags by this). */
export const RECORD_DELAY_MS = 50;

/** A created order whose record could not be written: the item is still 'sending'. */
export interface UnrecordedItem {
  item: SendItem;
  error: unknown;
}

export interface LedgerOptions {
  store: LocalStore;
  clock: Clock;
  timers: Timers;
  batchId: string;
  /** Requests this process froze (by seq): claims then need not read them back. */
  frozen: Map<number, CreateOrderRequest>;
  /** Orders were recorded (for progress events). */
  recorded: () => void;
  /** Records that failed; their items must be settled some other way (in doubt). */
  unrecorded: (items: UnrecordedItem[]) => void;
}

/**
 * The store side of a batch run's hot path: one commit serves many items, in both directions.
 *
 * - Claims ahead: `take()` hands out items claimed (durably 'sending', sent_at written) by one
 *   statement for up to CLAIM_AHEAD items, so every send still follows a committed claim. A crash
 *   leaves the claimed-but-unsent items 'sending', hence in doubt after the restart, and
 *   reconciliation finds no order for them and queues them again: never a duplicate. On pause or
 *   stop, `release()` returns them to 'queued' (this process knows they were not sent).
 * - Records in groups: a created order is recorded (`recordCreated`: item created, order
 *   mirrored) with the next claim, when CLAIM_AHEAD records wait (then with a claim that tops the
 *   claimed items up to CLAIM_AHEAD), or RECORD_DELAY_MS after the first one; `flush()` records
 *   what waits at once. Until its record commits the item stays
 *   'sending': a crash makes it in doubt and reconciliation finds its order.
 */
export class RunLedger {
  private readonly ahead: SendItem[] = [];
  private pending: { item: SendItem; order: AppOrder }[] = [];
  private timer: unknown = null;

  constructor(private readonly o: LedgerOptions) {}

  /** Claimed items not handed out yet. */
  get claimedAhead(): number {
    return this.ahead.length;
  }

  /** Created orders waiting for their record. */
  get unrecordedCount(): number {
    return this.pending.length;
  }

  /** The next claimed item; when none is left, records what waits and claims more in one commit. */
  take(): SendItem | null {
    if (this.ahead.length === 0) this.commit(true);
    return this.ahead.shift() ?? null;
  }

  /**
   * Queues the record of a created order (see the class comment for when it commits). A full
   * group also tops the claimed items up, so that records and claims share their commits.
   */
  created(item: SendItem, order: AppOrder): void {
    this.pending.push({ item, order });
    if (this.pending.length >= CLAIM_AHEAD) this.commit(true);
    else this.timer ??= this.o.timers.setTimeout(() => this.flush(), RECORD_DELAY_MS);
  }

  /** Records every created order that waits, now. */
  flush(): void {
    if (this.pending.length > 0) this.commit(false);
  }

  /** Puts every claimed, unsent item back in 'queued'. */
  release(): void {
    const seqs = this.ahead.splice(0).map((i) => i.seq);
    if (seqs.length > 0) this.o.store.batches.releaseClaims(this.o.batchId, seqs);
  }

  private commit(claim: boolean): void {
    if (this.timer !== null) {
      this.o.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    const { store, batchId, frozen } = this.o;
    const records = this.pending;
    this.pending = [];
    let failed: UnrecordedItem[] = [];
    let claimed: SendItem[] = [];
    // The records, then (when asked) the claim, in one transaction; what it claimed once committed.
    const inOneCommit = (record: () => void): SendItem[] =>
      store.transaction(() => {
        record();
        return claim ? this.claim() : [];
      });
    try {
      const group = records.map((r) => ({ seq: r.item.seq, order: r.order }));
      claimed = inOneCommit(() => store.batches.recordCreatedAll(batchId, group));
    } catch {
      // One record refused (it should not happen) undoes the group: again one savepoint each,
      // so that only the refused ones fail.
      try {
        claimed = inOneCommit(() => {
          for (const r of records) {
            try {
              store.batches.recordCreated(batchId, r.item.seq, r.order);
            } catch (error) {
              failed.push({ item: r.item, error });
            }
          }
        });
      } catch (error) {
        // The commit itself failed: nothing of it stands, neither the records nor the claim.
        failed = records.map((r) => ({ item: r.item, error }));
      }
    }
    this.ahead.push(...claimed);
    const refused = new Set(failed.map((f) => f.item));
    for (const r of records) if (!refused.has(r.item)) frozen.delete(r.item.seq);
    if (records.length > failed.length) this.o.recorded();
    if (failed.length > 0) this.o.unrecorded(failed);
  }

  /**
   * Claims as many items as it takes to hold CLAIM_AHEAD again; with the requests this process
   * froze when it has them.
   */
  private claim(): SendItem[] {
    const { store, batchId, frozen, clock } = this.o;
    const max = CLAIM_AHEAD - this.ahead.length;
    if (max <= 0) return [];
    const now = clock.now();
    if (frozen.size === 0) return store.batches.claimDue(batchId, now, max);
    return store.batches.claimDueKeys(batchId, now, max).map(({ seq, attempts }) => ({
      batchId,
      seq,
      attempts,
      request: frozen.get(seq) ?? store.batches.request(batchId, seq),
    }));
  }
}
