import { z } from 'zod';
import { ProtocolDraft as ProtocolDraftSchema } from '@shared/api';
import type { Db } from '../db/db';
import { StoreError } from '../db/errors';
import { jsonText, parseRow, prepareCached } from '../db/rows';
import {
  ORDER_SOURCE_SELECT,
  ProtocolOrderSourceRow,
  readLocalProtocol,
  type LocalProtocol,
  type ProtocolDraft,
  type ProtocolOrderSource,
} from './protocol-model';

/** A row's local_id and its draft. */
export const DraftRow = z.object({ local_id: z.string(), draft: jsonText(ProtocolDraftSchema) });

/** The protocol of `localId`, or a 'not-found' StoreError. */
export function requireProtocol(db: Db, localId: string): LocalProtocol {
  const p = readLocalProtocol(db, 'local_id', localId);
  if (!p) throw new StoreError('not-found', `No protocol ${localId}.`);
  return p;
}

/** What making an order of the protocol needs (see ProtocolOrderSource), or null. */
export function orderSource(db: Db, localId: string): ProtocolOrderSource | null {
  const row = prepareCached(
    db,
    `SELECT ${ORDER_SOURCE_SELECT} FROM protocols WHERE local_id = ?`,
  ).get(localId);
  return row ? parseRow(ProtocolOrderSourceRow, row, 'protocols', `local_id=${localId}`) : null;
}

export function countProtocols(db: Db, options: { includeDeleted?: boolean } = {}): number {
  const sql = options.includeDeleted
    ? 'SELECT COUNT(*) AS n FROM protocols'
    : 'SELECT COUNT(*) AS n FROM protocols WHERE deleted = 0';
  return (prepareCached(db, sql).get() as { n: number }).n;
}

/** Server ids of every local protocol that has one (to find those deleted on the server). */
export function serverIds(db: Db): string[] {
  return (
    prepareCached(db, 'SELECT server_id FROM protocols WHERE server_id IS NOT NULL').all() as {
      server_id: string;
    }[]
  ).map((r) => r.server_id);
}

/** The drafts of the protocols (not deleted) of these patients (sourceIds). */
export function draftsBySourceIds(db: Db, sourceIds: readonly string[]): ProtocolDraft[] {
  if (sourceIds.length === 0) return [];
  const rows = prepareCached(
    db,
    `SELECT local_id, draft FROM protocols
     WHERE deleted = 0 AND source_id IN (SELECT value FROM json_each(?))`,
  ).all(JSON.stringify([...new Set(sourceIds)])) as { local_id: string }[];
  return rows.map((r) => parseRow(DraftRow, r, 'protocols', `local_id=${r.local_id}`).draft);
}

/** The local ids of the protocols (not deleted) of one patient (sourceId). */
export function localIdsOfPatient(db: Db, sourceId: string): string[] {
  return (
    prepareCached(db, 'SELECT local_id FROM protocols WHERE deleted = 0 AND source_id = ?').all(
      sourceId,
    ) as { local_id: string }[]
  ).map((r) => r.local_id);
}

/** The server ids of these protocols, those that have one. */
export function serverIdsOf(db: Db, localIds: readonly string[]): string[] {
  if (localIds.length === 0) return [];
  return (
    prepareCached(
      db,
      `SELECT server_id FROM protocols
       WHERE server_id IS NOT NULL AND local_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(localIds)) as { server_id: string }[]
  ).map((r) => r.server_id);
}
