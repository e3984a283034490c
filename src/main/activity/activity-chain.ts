import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ActivityDetail, type ChainBreak, type ChainCheckView } from '@shared/activity-views';
import type { Db } from '../db/db';
import { prepareCached } from '../db/rows';

/*
 * The activity record's hash chain: each entry's hash covers its fields and the hash of the entry
 * before it, so changing, removing or reordering an entry breaks the chain at that entry. The
 * hash has no key: it shows what changed, it does not stop someone who rewrites every hash after
 * it (docs/security.md, the activity record's row).
 */

/** The prev_hash of the first entry a store ever writes. */
export const GENESIS_HASH = createHash('sha256').update('Order Desk activity record').digest('hex');

/** An entry's stored fields, as hashed (subjects and detail as their stored JSON text). */
export interface ChainFields {
  seq: number;
  at_local: string;
  at_server: string | null;
  desk_id: string;
  desk_name: string;
  os_user: string;
  staff: string | null;
  action: string;
  subjects: string;
  detail: string;
  prev_hash: string;
}

/**
 * SHA-256 (hex) of the entry's canonical serialisation: a JSON array of its fields in a fixed
 * order, the JSON columns as stored text, ending with prev_hash.
 */
export function entryHash(f: ChainFields): string {
  const canonical = JSON.stringify([
    f.seq,
    f.at_local,
    f.at_server,
    f.desk_id,
    f.desk_name,
    f.os_user,
    f.staff,
    f.action,
    f.subjects,
    f.detail,
    f.prev_hash,
  ]);
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level: one text per value, whoever writes it. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** A row as stored, unparsed (not ActivityRow): a changed row must read as a break, not fail. */
const ChainRow = z.object({
  seq: z.int(),
  at_local: z.string(),
  at_server: z.string().nullable(),
  desk_id: z.string(),
  desk_name: z.string(),
  os_user: z.string(),
  staff: z.string().nullable(),
  action: z.string(),
  subjects: z.string(),
  detail: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});

const Anchor = z
  .object({ anchor_seq: z.int().nullable(), anchor_hash: z.string().nullable() })
  .optional();

/** Where the chain of the entries kept starts: after the last entry a purge removed, or genesis. */
export function chainAnchor(db: Db): { seq: number; hash: string } | null {
  const row = Anchor.parse(
    prepareCached(db, 'SELECT anchor_seq, anchor_hash FROM activity_retention WHERE id = 1').get(),
  );
  return row && row.anchor_seq !== null && row.anchor_hash !== null
    ? { seq: row.anchor_seq, hash: row.anchor_hash }
    : null;
}

/** Entries read per query while checking: the walk never holds more than this. */
const CHUNK = 2000;

/**
 * Walks the whole chain in seq order, a chunk at a time (`pause` between chunks, so a long walk
 * lets other work run), and reports it intact or where and why it first breaks: an entry whose
 * content does not match its hash (changed), one that does not follow the entry before it (the
 * one before was changed or replaced), a gap in the seqs (entries removed), or a first entry that
 * does not follow the genesis value or the retention purge's last removed entry (which a purge
 * entry must name).
 */
export async function checkChain(
  db: Db,
  pause: () => Promise<void> = () => Promise.resolve(),
): Promise<ChainCheckView> {
  const anchor = chainAnchor(db);
  let expectedSeq = anchor ? anchor.seq + 1 : 1;
  let prevHash = anchor ? anchor.hash : GENESIS_HASH;
  let anchorNamed = anchor === null;
  let entries = 0;
  let first: number | null = null;
  let after = 0;
  const broken = (brokenAt: number, reason: ChainBreak, message: string): ChainCheckView => ({
    intact: false,
    entries,
    brokenAt,
    reason,
    message,
  });
  for (;;) {
    const rows = prepareCached(
      db,
      `SELECT seq, at_local, at_server, desk_id, desk_name, os_user, staff, action, subjects,
              detail, prev_hash, hash
         FROM activity WHERE seq > ? ORDER BY seq LIMIT ${CHUNK}`,
    ).all(after);
    for (const raw of rows) {
      const parsed = ChainRow.safeParse(raw);
      const seq = (raw as { seq?: unknown }).seq;
      if (!parsed.success)
        return broken(
          typeof seq === 'number' ? seq : expectedSeq,
          'unreadable',
          `Entry #${String(seq)} cannot be read: a field is missing or of the wrong type.`,
        );
      const row = parsed.data;
      if (row.seq !== expectedSeq) {
        const missing =
          row.seq === expectedSeq + 1
            ? `entry #${expectedSeq} is missing`
            : `entries #${expectedSeq} to #${row.seq - 1} are missing`;
        return broken(
          row.seq,
          'gap',
          row.seq > expectedSeq
            ? `Entry #${row.seq} comes after #${expectedSeq - 1}: ${missing}.`
            : `Entry #${row.seq} is out of order (expected #${expectedSeq}).`,
        );
      }
      if (entryHash(row) !== row.hash)
        return broken(
          row.seq,
          'hash-mismatch',
          `Entry #${row.seq} was changed after it was written: its content does not match its hash.`,
        );
      if (row.prev_hash !== prevHash)
        return entries === 0
          ? broken(
              row.seq,
              'anchor',
              anchor
                ? `Entry #${row.seq} does not follow entry #${anchor.seq}, the last one the retention purge removed.`
                : `Entry #${row.seq} does not follow the start of the record.`,
            )
          : broken(
              row.seq,
              'prev-link',
              `Entry #${row.seq} does not follow entry #${row.seq - 1}: that entry was changed or replaced.`,
            );
      if (anchor && !anchorNamed && row.action === 'retention-purge')
        anchorNamed = purgeNames(row.detail, anchor);
      first ??= row.seq;
      entries++;
      expectedSeq = row.seq + 1;
      prevHash = row.hash;
      after = row.seq;
    }
    if (rows.length < CHUNK) break;
    await pause();
  }
  if (!anchorNamed && anchor)
    return broken(
      anchor.seq + 1,
      'anchor',
      `The record starts after entry #${anchor.seq}, but no retention purge entry says it removed that entry.`,
    );
  return { intact: true, entries, first };
}

/** Whether a retention purge entry's detail names the anchor as the last entry it removed. */
function purgeNames(detail: string, anchor: { seq: number; hash: string }): boolean {
  try {
    const purge = ActivityDetail.parse(JSON.parse(detail)).purge;
    return purge?.lastRemovedSeq === anchor.seq && purge.lastRemovedHash === anchor.hash;
  } catch {
    return false;
  }
}
