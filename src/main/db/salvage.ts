import type { Db } from './db';

/** How much of one table came across. */
export interface TableSalvage {
  copied: number;
  /** Rows that could not be read (a damaged page or overflow page), or not written back. */
  unreadable: number;
  /** The table could not be read at all (its schema, or its whole tree, is damaged). */
  lost: boolean;
}

export type SalvageReport = Record<string, TableSalvage>;

/** Queries one table may cost before the rest of it is given up (a badly damaged tree). */
const PROBE_BUDGET = 200_000;
/** Rows read per query while the pages are sound. */
const PAGE = 500;

/**
 * Copies what can still be read of `tables` from a damaged database into `target` (the same
 * schema, or a newer one with defaults), row by row, parents before children, one transaction per
 * table. A rowid table is walked in rowid order, stepping past a damaged stretch and bisecting it
 * down to the rows that cannot be read, counted and skipped like a row the target refuses; a
 * WITHOUT ROWID table (small key-value tables) is copied whole or not at all.
 */
export function salvageTables(source: Db, target: Db, tables: readonly string[]): SalvageReport {
  const report: SalvageReport = {};
  for (const table of tables) report[table] = salvageTable(source, target, table);
  return report;
}

function salvageTable(source: Db, target: Db, table: string): TableSalvage {
  const result: TableSalvage = { copied: 0, unreadable: 0, lost: false };
  let columns: string[];
  let withoutRowid: boolean;
  try {
    const have = new Set(columnNames(source, table));
    columns = columnNames(target, table).filter((c) => have.has(c));
    withoutRowid = isWithoutRowid(source, table);
  } catch {
    return { ...result, lost: true };
  }
  if (columns.length === 0) return { ...result, lost: true };
  const list = columns.map(quote).join(', ');
  const insert = target.prepare(
    `INSERT OR IGNORE INTO ${quote(table)} (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const write = (row: Record<string, unknown>) => {
    try {
      if (insert.run(...columns.map((c) => row[c])).changes === 1) result.copied++;
    } catch {
      result.unreadable++; // refused by the target (a parent row that was lost)
    }
  };
  target.transaction(() => {
    if (withoutRowid) {
      try {
        for (const row of source.prepare(`SELECT ${list} FROM ${quote(table)}`).all())
          write(row as Record<string, unknown>);
      } catch {
        result.lost = true;
      }
      return;
    }
    const walk = walkRowids(source, table, list, write);
    result.unreadable += walk.unreadable;
    result.lost = walk.lost;
  })();
  return result;
}

/**
 * Reads every row of a rowid table it can, in rowid order, handing each to `write`. Returns the
 * count of rows found unreadable and whether the budget ran out before the end.
 */
function walkRowids(
  db: Db,
  table: string,
  list: string,
  write: (row: Record<string, unknown>) => void,
): { unreadable: number; lost: boolean } {
  // NOT INDEXED: the table's own tree, never an index (which may be the damaged part).
  const t = `${quote(table)} NOT INDEXED`;
  const from = `SELECT rowid AS "__rowid", ${list} FROM ${t}`;
  const after = db.prepare(`${from} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`);
  const next = db.prepare(`SELECT rowid AS r FROM ${t} WHERE rowid > ? ORDER BY rowid LIMIT 1`);
  // One row by equality: a range of one also steps to the next row, which may be damaged.
  const one = db.prepare(`${from} WHERE rowid = ?`);
  const between = db.prepare(`${from} WHERE rowid BETWEEN ? AND ? ORDER BY rowid`);
  const { lower, upper } = rowidBounds(db, table);
  let queries = 0;
  let unreadable = 0;
  const tryRead = <T>(read: () => T): { ok: true; value: T } | { ok: false } => {
    queries++;
    try {
      return { ok: true, value: read() };
    } catch {
      return { ok: false };
    }
  };
  const emit = (rows: unknown[]) => {
    for (const row of rows) write(row as Record<string, unknown>);
  };
  /** The rows of [lo, hi] that can be read; the single rowids that cannot are counted. */
  const bisect = (lo: number, hi: number): void => {
    if (queries > PROBE_BUDGET) return;
    const rows = tryRead(() => (lo === hi ? one.all(lo) : between.all(lo, hi)));
    if (rows.ok) return emit(rows.value);
    if (lo === hi) {
      unreadable++;
      return;
    }
    const mid = lo + Math.floor((hi - lo) / 2);
    bisect(lo, mid);
    bisect(mid + 1, hi);
  };

  let last = lower - 1;
  while (queries <= PROBE_BUDGET) {
    const page = tryRead(() => after.all(last) as { __rowid: number }[]);
    if (page.ok) {
      if (page.value.length === 0) return { unreadable, lost: false };
      emit(page.value);
      last = page.value.at(-1)!.__rowid;
      continue;
    }
    // Something after `last` cannot be read: find how far ahead the table reads again (probing
    // 1, 2, 4, ... rowids on), then bisect the stretch in between for the rows still readable.
    let resume: number | null = null;
    for (let step = 1; queries <= PROBE_BUDGET && step < 2 ** 52; step *= 2) {
      const probe = last + step;
      if (upper !== null && probe >= upper) break;
      if (tryRead(() => next.get(probe)).ok) {
        resume = probe;
        break;
      }
    }
    const end = resume ?? upper;
    // No end in sight and none known: the rest of the table is beyond reach.
    if (end === null) return { unreadable, lost: true };
    bisect(last + 1, end);
    if (resume === null) return { unreadable, lost: queries > PROBE_BUDGET };
    last = resume;
  }
  return { unreadable, lost: true };
}

/**
 * The lowest and highest rowid of the table when they can be read: min(rowid) (else 1, where
 * every table here starts) and max(rowid) (else the table's AUTOINCREMENT counter, else null).
 */
function rowidBounds(db: Db, table: string): { lower: number; upper: number | null } {
  const read = (sql: string, ...args: unknown[]): number | null => {
    try {
      const row = db.prepare(sql).get(...args) as { v: number | null } | undefined;
      return row?.v ?? null;
    } catch {
      return null; // the edge of the tree is damaged
    }
  };
  const t = `${quote(table)} NOT INDEXED`;
  return {
    lower: read(`SELECT min(rowid) AS v FROM ${t}`) ?? 1,
    upper:
      read(`SELECT max(rowid) AS v FROM ${t}`) ??
      read('SELECT seq AS v FROM sqlite_sequence WHERE name = ?', table),
  };
}

function columnNames(db: Db, table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
    (c) => c.name,
  );
}

function isWithoutRowid(db: Db, table: string): boolean {
  const row = db.prepare('SELECT wr FROM pragma_table_list WHERE name = ?').get(table) as
    { wr: number } | undefined;
  if (!row) throw new Error(`No table ${table}.`);
  return row.wr === 1;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
