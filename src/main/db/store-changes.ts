import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { ChangeSubject } from '@shared/core-events';
import type { Db } from './db';

/**
 * What each table of the stores holds, as the screens know it: a write to a table changes its
 * subject, and every screen reading that subject reads again. A table missing here is a bug the
 * tests catch (store-changes.test.ts checks every table of both stores' schemas).
 */
export const SUBJECT_OF_TABLE: Readonly<Record<string, ChangeSubject>> = {
  protocols: 'protocols',
  protocols_fts: 'protocols',
  protocol_products: 'protocols',
  protocol_columns: 'protocols',
  /**
   * The undo history: a step of protocols is written with the protocols it changes (which say
   * so); one of the list's columns or filters changes no protocol.
   */
  undo_steps: 'undo',
  jobs: 'jobs',
  orders: 'orders',
  order_status_changes: 'orders',
  /** The queue's search index (migration 19), kept from orders by triggers. */
  order_search: 'orders',
  order_search_fts: 'orders',
  order_lines: 'orders',
  order_slices: 'orders',
  order_days: 'orders',
  product_months: 'orders',
  possible_duplicates: 'orders',
  batches: 'batches',
  batch_items: 'batches',
  products: 'catalog',
  shipping_methods: 'catalog',
  sync_state: 'settings',
  settings: 'settings',
  connections: 'connection',
  notices: 'status',
  activity: 'activity',
  activity_patients: 'activity',
  activity_retention: 'activity',
};

/** The table a write statement writes (INSERT, REPLACE, UPDATE, DELETE), or null for a read. */
export function writtenTable(sql: string): string | null {
  const match =
    /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`[]?(\w+)/i.exec(
      sql,
    );
  return match ? match[1]!.toLowerCase() : null;
}

/** Told, once per burst of writes, which subjects they changed. */
export type ChangeListener = (subjects: ReadonlySet<ChangeSubject>) => void;

/**
 * Makes every write statement prepared on `db` from now on note the subject of its table; the
 * subjects noted are told to `listener` once, in a microtask after the writes. better-sqlite3's
 * transactions are synchronous, so by then the transaction has ended: the listener hears of
 * committed work (a rolled-back write is told too, which only costs the screens one more read).
 * One place for every repository, so that no write can forget to say what it changed.
 */
export function watchChanges(db: Db, listener: ChangeListener): void {
  const pending = new Set<ChangeSubject>();
  const flush = () => {
    const subjects = new Set(pending);
    pending.clear();
    listener(subjects);
  };
  const note = (subject: ChangeSubject) => {
    if (pending.size === 0) queueMicrotask(flush);
    pending.add(subject);
  };
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Statement;
  db.prepare = ((...args: unknown[]) => {
    const statement = prepare(...args);
    const table = writtenTable(statement.source);
    const subject = table === null ? undefined : SUBJECT_OF_TABLE[table];
    if (subject) noteWrites(statement, () => note(subject));
    return statement;
  }) as Db['prepare'];
}

/** Whether a write's answer says it changed a row: run's count, or a row RETURNING gave. */
const WROTE = {
  run: (result: unknown) => (result as { changes: number }).changes > 0,
  get: (result: unknown) => result !== undefined,
  all: (result: unknown) => (result as unknown[]).length > 0,
};

/** Notes the statement's subject after each run that changed a row (a no-op write tells nothing). */
function noteWrites(statement: Statement, note: () => void): void {
  const s = statement as unknown as Record<'run' | 'get' | 'all', (...args: unknown[]) => unknown>;
  for (const method of ['run', 'get', 'all'] as const) {
    const original = s[method];
    s[method] = function noted(this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      if (WROTE[method](result)) note();
      return result;
    };
  }
}
