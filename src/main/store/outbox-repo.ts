import { z } from 'zod';
import type { Clock } from '../clock';
import type { Db } from './db';
import { StoreError } from './errors';
import {
  OutboxOp,
  OutboxState,
  readLocalProtocol,
  type LocalProtocol,
} from '../protocols/protocol-model';
import { parseRow, prepareCached } from './rows';

const Row = z
  .object({
    seq: z.int(),
    protocol_local_id: z.string(),
    op: OutboxOp,
    base_updated_at: z.string().nullable(),
    state: OutboxState,
    attempts: z.int(),
    last_error: z.string().nullable(),
    sent_at: z.int().nullable(),
    sent_rev: z.int().nullable(),
    next_attempt_at: z.int().nullable(),
    created_at: z.int(),
    done_at: z.int().nullable(),
  })
  .transform((r) => ({
    seq: r.seq,
    protocolLocalId: r.protocol_local_id,
    op: r.op,
    /** Server updatedAt the change is based on; null for a create. */
    baseUpdatedAt: r.base_updated_at,
    state: r.state,
    attempts: r.attempts,
    lastError: r.last_error,
    /** Set while a push is in flight (state pending) or in doubt. */
    sentAt: r.sent_at,
    /** protocols.rev carried by the push in flight. */
    sentRev: r.sent_rev,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    doneAt: r.done_at,
  }));

export type OutboxEntry = z.output<typeof Row>;

/** What a local write did to the outbox. */
export type OutboxEffect = 'queued' | 'dropped' | 'deferred';

/**
 * The outbox: at most one live (not done) entry per protocol, pushed in seq order.
 *
 * An entry is "open" while it has not been sent (state pending, sent_at null) or is blocked by a
 * server rejection; local writes coalesce into an open entry (see reconcile). An entry in flight,
 * in doubt, or blocked by a conflict is left alone: the write only changes the protocol row
 * (rev, deleted), and the change is queued when that entry settles (markPushed, markRetry,
 * markRejected, or a conflict resolution).
 */
export class OutboxRepo {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  get(seq: number): OutboxEntry | null {
    const row = prepareCached(this.db, 'SELECT * FROM outbox WHERE seq = ?').get(seq);
    return row ? parseRow(Row, row, 'outbox', `seq=${seq}`) : null;
  }

  /** The live entry of a protocol, or null. */
  liveFor(localId: string): OutboxEntry | null {
    const row = prepareCached(
      this.db,
      "SELECT * FROM outbox WHERE protocol_local_id = ? AND state <> 'done'",
    ).get(localId);
    return row ? parseRow(Row, row, 'outbox', `seq=${(row as { seq: number }).seq}`) : null;
  }

  /**
   * Entries the pusher has to act on, in seq order: unsent pending ones (due at `now` when given)
   * and in-doubt ones (to reconcile before anything is resent). Not in flight, not blocked.
   */
  pending(now?: number): OutboxEntry[] {
    return prepareCached(
      this.db,
      `SELECT * FROM outbox
       WHERE (state = 'pending' AND sent_at IS NULL
              AND (@now IS NULL OR next_attempt_at IS NULL OR next_attempt_at <= @now))
          OR state = 'in_doubt'
       ORDER BY seq`,
    )
      .all({ now: now ?? null })
      .map((row) => parseRow(Row, row, 'outbox', `seq=${(row as { seq: number }).seq}`));
  }

  /** Live entries (what the UI shows as "changes waiting"). */
  count(): number {
    return (
      prepareCached(this.db, "SELECT COUNT(*) AS n FROM outbox WHERE state <> 'done'").get() as {
        n: number;
      }
    ).n;
  }

  /** Live entries by state. */
  counts(): { pending: number; inDoubt: number; blocked: number } {
    const rows = prepareCached(
      this.db,
      "SELECT state, COUNT(*) AS n FROM outbox WHERE state <> 'done' GROUP BY state",
    ).all() as { state: string; n: number }[];
    const n = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
    return { pending: n('pending'), inDoubt: n('in_doubt'), blocked: n('blocked') };
  }

  /**
   * Starts pushing an open pending entry: stamps sent_at, the protocol's rev and attempts + 1,
   * and returns the entry with the protocol as it is sent, in one transaction.
   */
  beginPush(seq: number): { entry: OutboxEntry; protocol: LocalProtocol } {
    return this.db.transaction(() => {
      const entry = this.require(seq);
      if (entry.state !== 'pending' || entry.sentAt !== null) {
        throw new StoreError(
          'invalid-state',
          `Outbox entry ${seq} is ${entry.state}${entry.sentAt !== null ? ', in flight' : ''}.`,
        );
      }
      prepareCached(
        this.db,
        `UPDATE outbox SET sent_at = ?, attempts = attempts + 1,
           sent_rev = (SELECT rev FROM protocols WHERE local_id = outbox.protocol_local_id)
         WHERE seq = ?`,
      ).run(this.clock.now(), seq);
      const protocol = readLocalProtocol(this.db, 'local_id', entry.protocolLocalId);
      if (!protocol) throw new StoreError('not-found', `No protocol ${entry.protocolLocalId}.`);
      return { entry: this.require(seq), protocol };
    })();
  }

  /**
   * The push did not take effect (refused before sending, 429/503, or reconciled as not applied):
   * back to pending and unsent, to try again from `nextAttemptAt` (null: at once).
   */
  markRetry(seq: number, error: string, nextAttemptAt: number | null): OutboxEffect {
    return this.db.transaction(() => {
      const entry = this.requireSent(seq);
      prepareCached(
        this.db,
        `UPDATE outbox SET state = 'pending', sent_at = NULL, sent_rev = NULL, last_error = ?, next_attempt_at = ?
         WHERE seq = ?`,
      ).run(error, nextAttemptAt, seq);
      return this.reconcile(entry.protocolLocalId, false);
    })();
  }

  /** The push's outcome is unknown (timeout, reset, dropped answer): reconcile before resending. */
  markInDoubt(seq: number, error: string): void {
    this.requireSent(seq);
    prepareCached(
      this.db,
      "UPDATE outbox SET state = 'in_doubt', last_error = ? WHERE seq = ?",
    ).run(error, seq);
  }

  /**
   * The server refused the content (400/422): blocked until the user edits the protocol. When the
   * draft already changed while the push was in flight, it is retried at once instead.
   */
  markRejected(seq: number, error: string): OutboxEffect {
    return this.db.transaction(() => {
      const entry = this.requireSent(seq);
      const rev = (
        prepareCached(this.db, 'SELECT rev FROM protocols WHERE local_id = ?').get(
          entry.protocolLocalId,
        ) as { rev: number } | undefined
      )?.rev;
      const state = entry.sentRev !== null && rev !== entry.sentRev ? 'pending' : 'blocked';
      prepareCached(
        this.db,
        'UPDATE outbox SET state = ?, sent_at = NULL, sent_rev = NULL, last_error = ?, next_attempt_at = NULL WHERE seq = ?',
      ).run(state, error, seq);
      return this.reconcile(entry.protocolLocalId, false);
    })();
  }

  /** After a crash: a push that was in flight has an unknown outcome. Returns how many. */
  recoverAfterCrash(): number {
    return prepareCached(
      this.db,
      "UPDATE outbox SET state = 'in_doubt' WHERE state = 'pending' AND sent_at IS NOT NULL",
    ).run().changes;
  }

  /** Deletes done entries finished before `before` (epoch ms). */
  pruneDone(before: number): number {
    return prepareCached(this.db, "DELETE FROM outbox WHERE state = 'done' AND done_at < ?").run(
      before,
    ).changes;
  }

  /**
   * Brings a protocol's outbox in line with its row after a local write (the caller is inside the
   * write's transaction). Coalescing rules, for an open entry or none:
   * - no entry: create when the protocol has no server id, else update (based on the row's base),
   *   or delete when the row is deleted;
   * - create + edit: still one create (the draft is read at push time);
   * - create + delete: the row and its entry are removed: the protocol never reached the server;
   * - update + edit: still one update, keeping the base of the first edit;
   * - update + delete: one delete with that base;
   * - a user edit unblocks an entry blocked by a rejection.
   * An entry in flight, in doubt or blocked by a conflict is not touched ('deferred').
   */
  reconcile(localId: string, userEdit: boolean): OutboxEffect {
    const row = prepareCached(
      this.db,
      'SELECT server_id, deleted, base_updated_at, sync_state FROM protocols WHERE local_id = ?',
    ).get(localId) as
      | {
          server_id: string | null;
          deleted: 0 | 1;
          base_updated_at: string | null;
          sync_state: string;
        }
      | undefined;
    if (!row) return 'dropped';
    const live = this.liveFor(localId);
    const open =
      live === null ||
      (live.sentAt === null &&
        (live.state === 'pending' || (live.state === 'blocked' && row.sync_state !== 'conflict')));
    if (!open) return 'deferred';
    if (row.deleted === 1 && row.server_id === null) {
      prepareCached(this.db, 'DELETE FROM protocols WHERE local_id = ?').run(localId);
      return 'dropped';
    }
    const op = row.deleted === 1 ? 'delete' : row.server_id !== null ? 'update' : 'create';
    if (live === null) {
      prepareCached(
        this.db,
        `INSERT INTO outbox (protocol_local_id, op, base_updated_at, state, created_at)
         VALUES (?, ?, ?, 'pending', ?)`,
      ).run(localId, op, op === 'create' ? null : row.base_updated_at, this.clock.now());
      return 'queued';
    }
    const unblock = live.state === 'blocked' && (userEdit || op !== live.op);
    prepareCached(
      this.db,
      `UPDATE outbox SET op = @op, state = @state,
         last_error = CASE WHEN @unblock THEN NULL ELSE last_error END,
         next_attempt_at = CASE WHEN @unblock THEN NULL ELSE next_attempt_at END
       WHERE seq = @seq`,
    ).run({ op, state: unblock ? 'pending' : live.state, unblock: unblock ? 1 : 0, seq: live.seq });
    return 'queued';
  }

  private require(seq: number): OutboxEntry {
    const entry = this.get(seq);
    if (!entry) throw new StoreError('not-found', `No outbox entry ${seq}.`);
    return entry;
  }

  /** An entry whose push is in flight (pending with sent_at) or in doubt. */
  private requireSent(seq: number): OutboxEntry {
    const entry = this.require(seq);
    const sent = (entry.state === 'pending' && entry.sentAt !== null) || entry.state === 'in_doubt';
    if (!sent)
      throw new StoreError(
        'invalid-state',
        `Outbox entry ${seq} is not being pushed (${entry.state}).`,
      );
    return entry;
  }
}
