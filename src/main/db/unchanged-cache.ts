import type { Db } from './db';
import { prepareCached } from './rows';

/**
 * A few results of expensive reads (a list's total, counts per status), each kept while the
 * database is unchanged: PRAGMA data_version moves when another connection commits, and
 * total_changes() when this one writes anything. A cached value is therefore never stale; any
 * write (even to another table) just makes the next read compute afresh.
 */
export class UnchangedCache<T> {
  private readonly entries = new Map<string, { version: string; value: T }>();

  constructor(
    private readonly db: Db,
    /** How many keys (queries) are kept; the least recently used goes first. */
    private readonly size = 4,
  ) {}

  /** The value kept for `key` if nothing was written since it was computed, else `compute()`'s. */
  get(key: string, compute: () => T): T {
    const version = this.version();
    const cached = this.entries.get(key);
    this.entries.delete(key);
    if (cached?.version === version) {
      this.entries.set(key, cached);
      return cached.value;
    }
    const value = compute();
    this.entries.set(key, { version, value });
    for (const old of this.entries.keys()) {
      if (this.entries.size <= this.size) break;
      this.entries.delete(old);
    }
    return value;
  }

  /** Both numbers in one cached statement (db.pragma() would prepare a statement each call). */
  private version(): string {
    const { v, n } = prepareCached(
      this.db,
      'SELECT data_version AS v, total_changes() AS n FROM pragma_data_version',
    ).get() as { v: number; n: number };
    return `${v}:${n}`;
  }
}
