import { AsyncLocalStorage } from 'node:async_hooks';
import Database from 'better-sqlite3-multiple-ciphers';
import type { Db } from '@main/db/db';
import { writtenTable } from '@main/db/store-changes';

/** One statement run: on which database, with which SQL. */
export interface TracedStatement {
  db: Db;
  source: string;
}

const current = new AsyncLocalStorage<TracedStatement[]>();
let installed = false;

/**
 * Makes every statement of every better-sqlite3 database in this process say when it runs, to
 * the `traced` call it runs inside (AsyncLocalStorage follows the call through its awaits, and
 * not into timers or requests started before it).
 */
function install(): void {
  if (installed) return;
  installed = true;
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method]!;
    proto[method] = function traced(this: { database: Db; source: string }, ...args: unknown[]) {
      current.getStore()?.push({ db: this.database, source: this.source });
      return original.apply(this, args);
    };
  }
}

/** Runs `work`, answering what it answered and the statements it ran until then. */
export async function traced<T>(
  work: () => Promise<T>,
): Promise<{ value: T; statements: TracedStatement[] }> {
  install();
  const statements: TracedStatement[] = [];
  const value = await current.run(statements, work);
  return { value, statements: [...statements] };
}

/**
 * The tables (and indexes' tables) a statement reads, from its EXPLAIN program: each OpenRead's
 * root page named through sqlite_schema; a virtual table (the FTS index) by its name in the SQL.
 * A write reads nothing here (what it writes is store-changes.ts's concern).
 */
export function tablesRead({ db, source }: TracedStatement): string[] {
  if (writtenTable(source) !== null || !/^\s*(SELECT|WITH)\b/i.test(source)) return [];
  const schema = db
    .prepare('SELECT type, name, tbl_name AS tbl, rootpage, sql FROM main.sqlite_schema')
    .all() as { type: string; name: string; tbl: string; rootpage: number; sql: string | null }[];
  const byRoot = new Map(schema.filter((s) => s.rootpage > 0).map((s) => [s.rootpage, s.tbl]));
  const program = db.prepare(`EXPLAIN ${source}`).all(...nullParameters(source)) as {
    opcode: string;
    p2: number;
    p3: number;
  }[];
  const tables = new Set<string>();
  for (const op of program) {
    if (op.opcode !== 'OpenRead' || op.p3 !== 0) continue;
    const table = byRoot.get(op.p2);
    if (table && !table.startsWith('sqlite_')) tables.add(table);
  }
  if (program.some((op) => op.opcode === 'VOpen'))
    for (const v of schema.filter((s) => /^CREATE VIRTUAL TABLE/i.test(s.sql ?? '')))
      if (new RegExp(`\\b${v.name}\\b`, 'i').test(source)) tables.add(v.name);
  return [...tables].sort();
}

/** Null for each parameter of the SQL (EXPLAIN needs them bound): `?`s, then the named ones. */
function nullParameters(source: string): unknown[] {
  const code = source.replace(/'(?:[^']|'')*'/g, "''");
  const positional = (code.match(/\?/g) ?? []).length;
  const named = [...code.matchAll(/[:@$]([A-Za-z_]\w*)/g)].map((m) => m[1]!);
  const nulls: unknown[] = Array.from({ length: positional }, () => null);
  if (named.length > 0) nulls.push(Object.fromEntries(named.map((name) => [name, null])));
  return nulls;
}
