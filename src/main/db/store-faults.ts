import type { Statement } from 'better-sqlite3-multiple-ciphers';
import type { Db } from './db';
import { StoreError } from './errors';

/**
 * What went wrong with the file under a store, as far as the user is concerned:
 * - damaged: SQLite found the file malformed (SQLITE_CORRUPT*) or not a database (SQLITE_NOTADB);
 * - full: the disk (or the user's quota) has no room for the write (SQLITE_FULL, ENOSPC, EDQUOT);
 * - read-only: the file or its folder cannot be written (SQLITE_READONLY*, EROFS, EACCES, EPERM);
 * - io: any other input/output error of the disk (SQLITE_IOERR*, EIO).
 */
export type StoreFault = 'damaged' | 'full' | 'read-only' | 'io';

const ERRNO_FAULTS: Record<string, StoreFault> = {
  ENOSPC: 'full',
  EDQUOT: 'full',
  EROFS: 'read-only',
  EACCES: 'read-only',
  EPERM: 'read-only',
  EIO: 'io',
};

/**
 * The fault an error stands for, or null when it is not about the file (a constraint, a bug).
 * better-sqlite3's SqliteError carries SQLite's extended code ("SQLITE_CORRUPT_INDEX"); Node's
 * file errors their errno name ("ENOSPC").
 */
export function storeFaultOf(error: unknown): StoreFault | null {
  if (error instanceof StoreError) return error.code === 'damaged' ? 'damaged' : null;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  // SQLite reports a shared-memory file it could not grow on a full disk as an I/O error.
  if (code === 'SQLITE_IOERR_SHMSIZE') return 'full';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return ERRNO_FAULTS[code] ?? null;
}

/** Told of every fault a statement of one store raised. */
export interface FaultListener {
  /** Called synchronously, from inside the failing call: do no database work here. */
  fault(fault: StoreFault, error: unknown): void;
}

const listeners = new WeakMap<Db, FaultListener>();

/** Tells the store's listener of the fault `error` stands for, if any. Returns that fault. */
export function reportFault(db: Db, error: unknown): StoreFault | null {
  const fault = storeFaultOf(error);
  const listener = listeners.get(db);
  if (!fault || !listener) return fault;
  try {
    listener.fault(fault, error);
  } catch {
    // A listener's failure must not replace the error the caller is about to see.
  }
  return fault;
}

/**
 * Makes every statement prepared on `db` from now on report the faults it raises to `listener`
 * (SQLITE_CORRUPT from a damaged page can surface in any read, at any time). The statement's own
 * methods are wrapped, so what callers see is unchanged: the same results, the same errors.
 */
export function watchFaults(db: Db, listener: FaultListener): void {
  const first = !listeners.has(db);
  listeners.set(db, listener);
  if (!first) return;
  const prepare = db.prepare.bind(db) as (...args: unknown[]) => Statement;
  db.prepare = ((...args: unknown[]) => watchStatement(db, prepare(...args))) as Db['prepare'];
}

function watchStatement(db: Db, statement: Statement): Statement {
  const s = statement as unknown as Record<'run' | 'get' | 'all' | 'iterate', unknown>;
  for (const method of ['run', 'get', 'all'] as const) {
    const original = s[method] as (...args: unknown[]) => unknown;
    s[method] = function watched(this: unknown, ...args: unknown[]) {
      try {
        return original.apply(this, args);
      } catch (error) {
        reportFault(db, error);
        throw error;
      }
    };
  }
  const iterate = s.iterate as (...args: unknown[]) => IterableIterator<unknown>;
  s.iterate = function watched(this: unknown, ...args: unknown[]) {
    let rows: IterableIterator<unknown>;
    try {
      rows = iterate.apply(this, args);
    } catch (error) {
      reportFault(db, error);
      throw error;
    }
    const next = rows.next.bind(rows);
    rows.next = (...a: [] | [undefined]) => {
      try {
        return next(...a);
      } catch (error) {
        reportFault(db, error);
        throw error;
      }
    };
    return rows;
  };
  return statement;
}
