import { z } from 'zod';
import {
  ActivityAction,
  ActivityDetail,
  ActivitySubjects,
  type ActivityActor,
  type ActivityFilter,
} from '@shared/activity-views';
import type { Db } from '../db/db';
import { StoreError } from '../db/errors';
import { jsonText, parseRow, prepareCached, runTransaction } from '../db/rows';
import { UnchangedCache } from '../db/unchanged-cache';
import { GENESIS_HASH, canonicalJson, chainAnchor, entryHash } from './activity-chain';

/** One entry to append: what, to which ids, the facts, and who, when (set by ActivityLog). */
export interface NewActivityEntry {
  action: ActivityAction;
  subjects: ActivitySubjects;
  detail: ActivityDetail;
  actor: ActivityActor;
  /** The PC's clock, epoch ms. */
  atLocal: number;
  /** The server's time, epoch ms; null when unknown or offline. */
  atServer: number | null;
}

export const ActivityRow = z
  .object({
    seq: z.int(),
    at_local: z.string(),
    at_server: z.string().nullable(),
    desk_id: z.string(),
    desk_name: z.string(),
    os_user: z.string(),
    staff: z.string().nullable(),
    action: ActivityAction,
    subjects: jsonText(ActivitySubjects),
    detail: jsonText(ActivityDetail),
    hash: z.string(),
    prev_hash: z.string(),
  })
  .transform((r) => ({
    seq: r.seq,
    atLocal: r.at_local,
    atServer: r.at_server,
    deskId: r.desk_id,
    deskName: r.desk_name,
    osUser: r.os_user,
    staff: r.staff,
    action: r.action,
    subjects: r.subjects,
    detail: r.detail,
    hash: r.hash,
    prevHash: r.prev_hash,
  }));
export type ActivityEntry = z.output<typeof ActivityRow>;

/** Filters as the repository applies them (instants as the stored ISO text in UTC). */
export type ActivityMatch = Omit<ActivityFilter, 'from' | 'to'> & { from?: string; to?: string };

/** What a purge removed: how many, and the last one (where the kept chain starts). */
export interface Purged {
  removed: number;
  lastSeq: number;
  lastHash: string;
}

const NextRow = z.object({ next: z.int() });
const TailRow = z.object({ hash: z.string() }).optional();
const CountRow = z.object({ n: z.int() });
const SeqRow = z.object({ seq: z.int().nullable() });

/**
 * The activity table of one connection's store (migration 13): entries appended to the hash
 * chain, read filtered and newest first, and removed only by the retention purge (the triggers
 * refuse anything else).
 */
export class ActivityRepo {
  private readonly counts: UnchangedCache<number>;

  constructor(private readonly db: Db) {
    this.counts = new UnchangedCache(db);
  }

  /**
   * Appends one entry at the end of the chain: the next seq (never one given before, even when
   * newer entries were removed) and the hash of the newest entry kept (else the purge's anchor,
   * else genesis). In the caller's transaction when there is one (a savepoint), else its own.
   */
  append(entry: NewActivityEntry): ActivityEntry {
    return runTransaction(this.db, () => {
      const { next } = NextRow.parse(
        prepareCached(
          this.db,
          `SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'activity'), 0) + 1 AS next`,
        ).get(),
      );
      const tail = TailRow.parse(
        prepareCached(this.db, 'SELECT hash FROM activity ORDER BY seq DESC LIMIT 1').get(),
      );
      const fields = {
        seq: next,
        at_local: new Date(entry.atLocal).toISOString(),
        at_server: entry.atServer === null ? null : new Date(entry.atServer).toISOString(),
        desk_id: entry.actor.deskId,
        desk_name: entry.actor.deskName,
        os_user: entry.actor.osUser,
        staff: entry.actor.staff,
        action: ActivityAction.parse(entry.action),
        subjects: canonicalJson(ActivitySubjects.parse(entry.subjects)),
        detail: canonicalJson(ActivityDetail.parse(entry.detail)),
        prev_hash: tail?.hash ?? chainAnchor(this.db)?.hash ?? GENESIS_HASH,
      };
      const hash = entryHash(fields);
      prepareCached(
        this.db,
        `INSERT INTO activity (seq, at_local, at_server, desk_id, desk_name, os_user, staff,
           action, subjects, detail, prev_hash, hash)
         VALUES (@seq, @at_local, @at_server, @desk_id, @desk_name, @os_user, @staff, @action,
           @subjects, @detail, @prev_hash, @hash)`,
      ).run({ ...fields, hash });
      return this.require(next);
    });
  }

  get(seq: number): ActivityEntry | null {
    const row = prepareCached(this.db, 'SELECT * FROM activity WHERE seq = ?').get(seq);
    return row ? parseRow(ActivityRow, row, 'activity', `seq=${seq}`) : null;
  }

  /** A page of the entries matching, newest first. */
  page(match: ActivityMatch, limit: number, offset: number): ActivityEntry[] {
    const { where, params } = whereOf(match);
    return prepareCached(
      this.db,
      `SELECT * FROM activity ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`,
    )
      .all(...params, limit, offset)
      .map((row) => parseRow(ActivityRow, row, 'activity', `seq=${(row as { seq: number }).seq}`));
  }

  /** How many entries match (kept while nothing is written). */
  count(match: ActivityMatch): number {
    const { where, params } = whereOf(match);
    return this.counts.get(
      JSON.stringify(match),
      () =>
        CountRow.parse(
          prepareCached(this.db, `SELECT COUNT(*) AS n FROM activity ${where}`).get(...params),
        ).n,
    );
  }

  /** Every entry matching, newest first, one at a time (the export). */
  *matching(match: ActivityMatch): Generator<ActivityEntry> {
    const { where, params } = whereOf(match);
    const statement = prepareCached(this.db, `SELECT * FROM activity ${where} ORDER BY seq DESC`);
    for (const row of statement.iterate(...params))
      yield parseRow(ActivityRow, row, 'activity', `seq=${(row as { seq: number }).seq}`);
  }

  /** The people in the record: staff names picked at a desk, and OS accounts. */
  people(): { staff: string[]; osUsers: string[] } {
    const names = (sql: string) =>
      (prepareCached(this.db, sql).all() as { name: unknown }[])
        .map((r) => r.name)
        .filter((n): n is string => typeof n === 'string');
    return {
      staff: names(
        'SELECT DISTINCT staff AS name FROM activity WHERE staff IS NOT NULL ORDER BY staff',
      ),
      osUsers: names('SELECT DISTINCT os_user AS name FROM activity ORDER BY os_user'),
    };
  }

  /**
   * Removes the oldest entries written before `cutoff` (ISO, UTC), up to the first one that is
   * not: only a run at the start of the chain goes, so the entries kept stay one chain even when
   * the PC's clock once went back. The triggers allow exactly those deletes while the purge's
   * bounds are set, and the bounds are cleared before the transaction ends; the last removed
   * entry becomes the anchor the check starts from. Call it in the transaction that appends the
   * purge's own entry. Null when nothing was that old.
   */
  purgeBefore(cutoff: string): Purged | null {
    return runTransaction(this.db, () => {
      const firstKept = SeqRow.parse(
        prepareCached(this.db, 'SELECT MIN(seq) AS seq FROM activity WHERE at_local >= ?').get(
          cutoff,
        ),
      ).seq;
      const through =
        firstKept !== null
          ? firstKept - 1
          : SeqRow.parse(prepareCached(this.db, 'SELECT MAX(seq) AS seq FROM activity').get()).seq;
      if (through === null) return null;
      const removed = CountRow.parse(
        prepareCached(this.db, 'SELECT COUNT(*) AS n FROM activity WHERE seq <= ?').get(through),
      ).n;
      if (removed === 0) return null;
      const last = prepareCached(
        this.db,
        'SELECT seq, hash FROM activity WHERE seq <= ? ORDER BY seq DESC LIMIT 1',
      ).get(through) as { seq: number; hash: string };
      prepareCached(
        this.db,
        `INSERT INTO activity_retention (id, purge_through, purge_before) VALUES (1, ?, ?)
         ON CONFLICT (id) DO UPDATE SET purge_through = excluded.purge_through,
           purge_before = excluded.purge_before`,
      ).run(through, cutoff);
      const deleted = prepareCached(this.db, 'DELETE FROM activity WHERE seq <= ?').run(
        through,
      ).changes;
      if (deleted !== removed)
        throw new StoreError('invalid-state', 'The retention purge removed an unexpected count.');
      prepareCached(
        this.db,
        `UPDATE activity_retention SET purge_through = NULL, purge_before = NULL,
           anchor_seq = ?, anchor_hash = ? WHERE id = 1`,
      ).run(last.seq, last.hash);
      return { removed, lastSeq: last.seq, lastHash: last.hash };
    });
  }

  private require(seq: number): ActivityEntry {
    const entry = this.get(seq);
    if (!entry) throw new StoreError('not-found', `No activity entry ${seq}.`);
    return entry;
  }
}

/** The WHERE clause of the filters given (every one must match). */
function whereOf(match: ActivityMatch): { where: string; params: unknown[] } {
  const terms: string[] = [];
  const params: unknown[] = [];
  if (match.patient) {
    terms.push('seq IN (SELECT seq FROM activity_patients WHERE patient_id = ?)');
    params.push(match.patient);
  }
  if (match.person) {
    // Unindexed (+): the walk newest first stops at the page, where two indexes OR'd would
    // gather and sort every match first (0.4 ms against 200 ms at 100,000 entries).
    terms.push('(+staff = ? OR +os_user = ?)');
    params.push(match.person, match.person);
  }
  if (match.action) {
    terms.push('action = ?');
    params.push(match.action);
  }
  if (match.from) {
    terms.push('at_local >= ?');
    params.push(match.from);
  }
  if (match.to) {
    terms.push('at_local < ?');
    params.push(match.to);
  }
  return { where: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}
