import { z } from 'zod';
import type Database from 'better-sqlite3-multiple-ciphers';
import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db';
import { CorruptRowError } from './errors';
import { reportFault } from './store-faults';

/** A TEXT column holding JSON: parsed, then checked against `schema`. */
export const jsonText = <S extends z.ZodType>(schema: S) =>
  z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/** A nullable TEXT column holding JSON. */
export const jsonTextOrNull = <S extends z.ZodType>(schema: S) => jsonText(schema).nullable();

/** An INTEGER 0/1 column read as a boolean. */
export const flag = z.union([z.literal(0), z.literal(1)]).transform((v) => v === 1);

/** Parses a row read back from SQLite; a mismatch is a CorruptRowError naming table and key. */
export function parseRow<S extends z.ZodType>(
  schema: S,
  row: unknown,
  table: string,
  key: string,
): z.output<S> {
  const result = schema.safeParse(row);
  if (!result.success) throw new CorruptRowError(table, key, result.error.issues);
  return result.data;
}

/**
 * Parses a TEXT column holding JSON against `schema` (as `parseRow(jsonText(schema), ...)`
 * would, without making a schema at every read); a mismatch is a CorruptRowError.
 */
export function parseJsonRow<S extends z.ZodType>(
  schema: S,
  text: string,
  table: string,
  key: string,
): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CorruptRowError(table, key, [
      { code: 'custom', message: 'is not valid JSON', path: [], input: text },
    ]);
  }
  return parseRow(schema, value, table, key);
}

const statements = new WeakMap<Db, Map<string, Statement>>();

/** One prepared statement per (database, SQL text). */
export function prepareCached(db: Db, sql: string): Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) {
    // Queries built from user input (one LIKE per search term) vary: keep the cache bounded.
    if (cache.size >= 256) cache.clear();
    cache.set(sql, (statement = db.prepare(sql)));
  }
  return statement;
}

const runners = new WeakMap<Db, Database.Transaction<(fn: () => unknown) => unknown>>();

/**
 * Runs `fn` in one transaction that begins IMMEDIATE (nested calls become savepoints), rolled
 * back when it throws. IMMEDIATE takes the write lock first, so a transaction that reads and then
 * writes never meets SQLITE_BUSY half-way when another connection (a second process on the same
 * file) commits in between: it waits for the lock (busy_timeout) instead. One transaction
 * function per database, as better-sqlite3 builds four wrappers for each. A fault of the file
 * (damaged, full, read-only: store-faults.ts) is told to the store's listener.
 */
export function runTransaction<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  try {
    return run.immediate(fn) as T;
  } catch (error) {
    // BEGIN and COMMIT run outside the watched statements: their faults are told here.
    reportFault(db, error);
    throw error;
  }
}

/** Epoch milliseconds of a server timestamp (ISO 8601 with offset). */
export const epochMs = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`Not a timestamp: ${iso}`);
  return ms;
};

/** `%text%` for LIKE ... ESCAPE '\', with the wildcards of `text` escaped. */
export const likeContains = (text: string): string =>
  `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
