import type { z } from 'zod';

export type StoreErrorCode =
  | 'future-schema'
  | 'corrupt-row'
  | 'not-found'
  | 'invalid-state'
  /** The file is damaged (quick_check found problems): see store-recovery.ts. */
  | 'damaged'
  /** Another process holds the data directory (stores/app-store.ts). */
  | 'in-use'
  /** No connection store is open (none active, or it is being switched or recovered). */
  | 'unavailable'
  /** A store file that is not encrypted, or no key to open it with (cipher.ts). */
  | 'not-encrypted';

/** Every error the store throws on purpose. Messages name tables and keys, never row contents. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A row whose JSON (or columns) no longer match their schema: reported, not returned. */
export class CorruptRowError extends StoreError {
  constructor(
    readonly table: string,
    readonly key: string,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super('corrupt-row', `Corrupt row in ${table} (${key}): ${describeIssues(issues)}`);
  }
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((i) => {
    const path = i.path.map(String).join('.');
    return path ? `${path}: ${i.message}` : i.message;
  });
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}

/** PRAGMA quick_check found problems: the file is damaged, though SQLite could open it. */
export class StoreDamagedError extends StoreError {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(
      'damaged',
      `The database ${file} is damaged: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`,
    );
  }
}
