import type { AppOrder, CreateOrderRequest } from '../../shared/api';
import type { Clock } from '../clock';
import type { BatchItem, LocalStore } from '../store';
import { PlanRefusedError } from '../store/store-worker';
import type { Timers } from '../timers';

/**
 * What sending a batch item needs to know of it: which it is, how often it was tried (for the
 * backoff) and its frozen request. A claimed item; a full BatchItem is one too.
 */
export type SendItem = Pick<BatchItem, 'batchId' | 'seq' | 'attempts' | 'request'>;

/** Items claimed in one statement, and created orders recorded in one commit, at the most. */
export const CLAIM_AHEAD = 32;
/** With the store's worker: claimed items left when the next claim is asked for, so that it lands first. */
export const CLAIM_LOW_WATER = CLAIM_AHEAD / 2;
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
  /** Items claimed on the store's worker came in: take() has more to hand out. */
  claimed: () => void;
  /**
   * A claim on the store's worker may have committed, but its answer was lost (the worker
   * stopped): items may be 'sending' that no one here knows of. The run settles them (in doubt).
   */
  claimsLost: () => void;
  /**
   * What went wrong after a commit on the store's worker that nothing above could settle (the
   * items concerned stay 'sending': in doubt at the next start).
   */
  log: (line: string) => void;
}

interface Created {
  item: SendItem;
  order: AppOrder;
}

type Claim = { now: number; max: number } | null;

/**
 * The store side of a batch run's hot path: one commit serves many items, in both directions,
 * and while the store has its worker thread (LocalStore.writeOffThread) those commits run there,
 * off the thread that sends the creates and serves the window.
 *
 * - Claims ahead: `take()` hands out items claimed (durably 'sending', sent_at written) by one
 *   statement for up to CLAIM_AHEAD items, so every send still follows a committed claim. With
 *   the worker the next claim is asked for when CLAIM_LOW_WATER are left, and lands before they
 *   run out. When none is left and no commit is under way, take() claims on the main connection
 *   at once (the start of a run, after a pause in the work), as without the worker. A crash
 *   leaves the claimed-but-unsent items 'sending', hence in doubt after the restart, and
 *   reconciliation finds no order for them and queues them again: never a duplicate. On pause or
 *   stop, `release()` returns them to 'queued' (this process knows they were not sent).
 * - Records in groups: a created order is recorded (item created, order mirrored) when
 *   CLAIM_AHEAD records wait (with a claim that tops the claimed items up to CLAIM_AHEAD), with
 *   the next claim, or RECORD_DELAY_MS after the first one; `flush()` records what waits at once.
 *   Until its record commits the item stays 'sending': a crash makes it in doubt and
 *   reconciliation finds its order.
 * - On the worker a commit holds only the usual case. When the worker refuses it (a record that
 *   is not: an item in another state, an order the mirror has already) nothing of it was written,
 *   and it is done again on the main connection, where each record says why or merges. When the
 *   worker stops during a commit, the records are written again on the main connection (which
 *   is the same for records already written) and the run is told that claims may be lost.
 */
export class RunLedger {
  private readonly ahead: SendItem[] = [];
  private pending: Created[] = [];
  private timer: unknown = null;
  /** The commit under way on the store's worker. */
  private committing: Promise<void> | null = null;
  /** A claim was asked for while a commit was under way: it follows that commit. */
  private claimWanted = false;
  /** The latest claim found fewer items than it asked for: no claim ahead until one finds more. */
  private drained = false;
  /** release() has begun: no more claims. */
  private released = false;

  constructor(private readonly o: LedgerOptions) {}

  /** Claimed items not handed out yet. */
  get claimedAhead(): number {
    return this.ahead.length;
  }

  /** Created orders waiting for their record. */
  get unrecordedCount(): number {
    return this.pending.length;
  }

  /** The items this ledger holds: claimed and not handed out yet, or created and not recorded yet. */
  heldSeqs(): number[] {
    return [...this.ahead.map((i) => i.seq), ...this.pending.map((r) => r.item.seq)];
  }

  /**
   * The next claimed item, or null when none is claimed: then a claim is made (at once when no
   * commit is under way, else right after it, and the run is told when items came in).
   */
  take(): SendItem | null {
    if (this.ahead.length === 0 && !this.released) {
      if (this.committing) this.claimWanted = true;
      else this.commitHere(this.takePending(), this.claimFor());
    }
    const item = this.ahead.shift() ?? null;
    if (this.ahead.length <= CLAIM_LOW_WATER && !this.drained && !this.released)
      this.commitOffThread(true);
    return item;
  }

  /**
   * Queues the record of a created order (see the class comment for when it commits). A full
   * group also tops the claimed items up, so that records and claims share their commits.
   */
  created(item: SendItem, order: AppOrder): void {
    this.pending.push({ item, order });
    if (this.pending.length >= CLAIM_AHEAD) this.commit(true);
    else this.timer ??= this.o.timers.setTimeout(() => this.commit(false), RECORD_DELAY_MS);
  }

  /** Records every created order that waits, now; resolves once they are committed. */
  async flush(): Promise<void> {
    while (this.committing || this.pending.length > 0) {
      if (this.committing) await this.committing;
      else this.commit(false);
    }
  }

  /** Records what waits, then puts every claimed, unsent item back in 'queued'. */
  async release(): Promise<void> {
    this.released = true;
    await this.flush();
    const seqs = this.ahead.splice(0).map((i) => i.seq);
    if (seqs.length > 0) this.o.store.batches.releaseClaims(this.o.batchId, seqs);
  }

  /** Commits the records that wait (and a claim, if asked): on the worker when there is one. */
  private commit(claim: boolean): void {
    if (!this.commitOffThread(claim))
      this.commitHere(this.takePending(), claim ? this.claimFor() : null);
  }

  /**
   * Starts a commit on the store's worker, unless one is under way (the claim is then asked of
   * the next). False when the store has no worker running.
   */
  private commitOffThread(claim: boolean): boolean {
    if (this.committing) {
      this.claimWanted ||= claim;
      return true;
    }
    const { store, batchId } = this.o;
    const wanted = claim || this.claimWanted;
    let records: Created[] = [];
    let asked: Claim = null;
    let readClaimed: ((rows: readonly unknown[][]) => { seq: number; attempts: number }[]) | null =
      null;
    let written: Promise<unknown[][]> | null;
    try {
      written = store.writeOffThread(() => {
        records = this.takePending();
        asked = wanted ? this.claimFor() : null;
        const group = records.map((r) => ({ seq: r.item.seq, order: r.order }));
        const built = store.batches.recordAndClaimPlan(batchId, group, asked);
        readClaimed = built.claimed;
        return built.plan;
      });
    } catch {
      // The plan could not be made or sent: the same commit here, where each record says why.
      this.claimWanted = false;
      this.commitHere(records, asked, true);
      return true;
    }
    if (!written) return false;
    this.claimWanted = false;
    this.committing = written
      .then(
        (rows) => this.landed(records, asked, readClaimed!(rows), [], true),
        (error: unknown) => {
          if (error instanceof PlanRefusedError) return this.commitHere(records, asked, true);
          // The worker stopped: whether the commit stands is unknown. Records again here (the
          // same for those that stand); claims it may have made are for the run to settle.
          this.commitHere(records, null);
          if (asked) this.o.claimsLost();
        },
      )
      .finally(() => {
        this.committing = null;
        if (this.claimWanted || this.pending.length >= CLAIM_AHEAD) this.commit(true);
        else if (this.pending.length > 0)
          this.timer ??= this.o.timers.setTimeout(() => this.commit(false), RECORD_DELAY_MS);
      })
      .catch((error: unknown) => this.o.log(`a commit on the store worker: ${String(error)}`));
    return true;
  }

  /** The records, then the claim, in one transaction on the main connection. */
  private commitHere(records: Created[], claim: Claim, tellRun = false): void {
    const { store, batchId } = this.o;
    let failed: UnrecordedItem[] = [];
    let claimed: { seq: number; attempts: number }[] = [];
    const inOneCommit = (record: () => void) =>
      store.transaction(() => {
        record();
        return claim ? store.batches.claimDueKeys(batchId, claim.now, claim.max) : [];
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
    this.landed(records, claim, claimed, failed, tellRun);
  }

  /** What a commit did: the claimed items join those ahead; recorded items let their request go. */
  private landed(
    records: Created[],
    claim: Claim,
    claimed: { seq: number; attempts: number }[],
    failed: UnrecordedItem[],
    tellRun: boolean,
  ): void {
    const { store, batchId, frozen } = this.o;
    // Requests this process did not freeze (a run resumed after a restart): read in one go.
    const unfrozen = claimed.filter((c) => !frozen.has(c.seq)).map((c) => c.seq);
    const read = unfrozen.length > 0 ? store.batches.requests(batchId, unfrozen) : null;
    for (const { seq, attempts } of claimed) {
      const request = frozen.get(seq) ?? read!.get(seq)!;
      this.ahead.push({ batchId, seq, attempts, request });
    }
    if (claim) this.drained = claimed.length < claim.max;
    const refused = new Set(failed.map((f) => f.item));
    for (const r of records) if (!refused.has(r.item)) frozen.delete(r.item.seq);
    if (records.length > failed.length) this.o.recorded();
    if (failed.length > 0) this.o.unrecorded(failed);
    if (tellRun && claimed.length > 0) this.o.claimed();
  }

  private takePending(): Created[] {
    if (this.timer !== null) {
      this.o.timers.clearTimeout(this.timer);
      this.timer = null;
    }
    const records = this.pending;
    this.pending = [];
    return records;
  }

  /** A claim of as many items as it takes to hold CLAIM_AHEAD again (none once released). */
  private claimFor(): Claim {
    const max = CLAIM_AHEAD - this.ahead.length;
    return max > 0 && !this.released ? { now: this.o.clock.now(), max } : null;
  }
}
