import { z } from 'zod';
import type { Direction } from '@shared/api';
import { badRequest } from '../errors';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db';

/**
 * Keyset pagination with opaque cursors in both directions. A cursor names the first and last
 * key of the page it came from: `direction=next` continues after the last, `previous` before the
 * first. The cursor in an answer is null when there is no page in the requested direction.
 */
const CursorBody = z.object({ v: z.literal(1), r: z.string(), f: z.number(), l: z.number() });

export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
  direction: Direction;
}

export interface PageSpec {
  /** Names the list, so a cursor of one list is refused by another. */
  resource: string;
  table: string;
  /** Integer column that orders the list. */
  key: string;
  /** True: highest key first (newest first). */
  descending: boolean;
  where: readonly string[];
  params: readonly unknown[];
}

export interface Page {
  bodies: string[];
  cursor: string | null;
}

export function encodeCursor(resource: string, first: number, last: number): string {
  return Buffer.from(JSON.stringify({ v: 1, r: resource, f: first, l: last })).toString(
    'base64url',
  );
}

export function decodeCursor(resource: string, cursor: string): { first: number; last: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor is not valid: pass back a cursor from a previous page of this list');
  }
  const body = CursorBody.safeParse(parsed);
  if (!body.success || body.data.r !== resource) {
    throw badRequest('cursor is not valid: pass back a cursor from a previous page of this list');
  }
  return { first: body.data.f, last: body.data.l };
}

type AnyStatement = Statement<unknown[]>;

const statements = new WeakMap<Db, Map<string, AnyStatement>>();

/** Prepares each SQL text once per database. */
export function prepareCached(db: Db, sql: string): AnyStatement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare<unknown[]>(sql)));
  return stmt;
}

export function readPage(db: Db, spec: PageSpec, req: PageRequest): Page {
  const where = [...spec.where];
  const params = [...spec.params];
  // Walking towards the front of the list reverses the order, then the page is turned back.
  const backwards = req.cursor !== undefined && req.direction === 'previous';
  if (req.cursor !== undefined) {
    const { first, last } = decodeCursor(spec.resource, req.cursor);
    const after = spec.descending !== backwards ? '<' : '>';
    where.push(`${spec.key} ${after} ?`);
    params.push(backwards ? first : last);
  }
  const order = spec.descending !== backwards ? 'DESC' : 'ASC';
  const sql =
    `SELECT ${spec.key} AS k, body FROM ${spec.table}` +
    (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY ${spec.key} ${order} LIMIT ?`;
  const rows = prepareCached(db, sql).all(...params, req.limit + 1) as {
    k: number;
    body: string;
  }[];
  const more = rows.length > req.limit;
  const page = rows.slice(0, req.limit);
  if (backwards) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  return {
    bodies: page.map((r) => r.body),
    cursor: more && first && last ? encodeCursor(spec.resource, first.k, last.k) : null,
  };
}
