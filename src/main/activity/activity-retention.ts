import { subYears } from 'date-fns';
import type { Clock } from '../clock';
import type { Timers } from '../timers';
import type { ActivityLog } from './activity-log';
import type { ActivityRepo, Purged } from './activity-repo';

/** How often the purge runs while a store is open. */
export const PURGE_EVERY_MS = 24 * 60 * 60 * 1000;

export interface ActivityRetentionOptions {
  repo: Pick<ActivityRepo, 'purgeBefore'>;
  /** Records the purge's own entry, in the purge's transaction. */
  log: Pick<ActivityLog, 'record'>;
  transaction<T>(fn: () => T): T;
  /** The years entries are kept (the setting, read at each run). */
  years: () => number;
  /** The PC's clock: entries are older than the cutoff by their local time. */
  clock: Clock;
  /** Waits on a monotonic timer, so a change of the PC's clock moves no run. */
  timers: Timers;
  everyMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The activity record's retention: when the store is opened and then every day while it is, the
 * entries older than the setting's years are removed (ActivityRepo.purgeBefore) and, when any
 * were, a retention-purge entry says how many and names the last one removed, in the same
 * transaction.
 */
export class ActivityRetention {
  private handle: unknown = null;
  private stopped = false;

  constructor(private readonly o: ActivityRetentionOptions) {}

  start(): void {
    this.stopped = false;
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.handle !== null) this.o.timers.clearTimeout(this.handle);
    this.handle = null;
  }

  /** Purges now; what was removed, or null when nothing was old enough. */
  run(): Purged | null {
    const years = this.o.years();
    const cutoff = subYears(new Date(this.o.clock.now()), years).toISOString();
    return this.o.transaction(() => {
      const purged = this.o.repo.purgeBefore(cutoff);
      if (purged)
        this.o.log.record({
          action: 'retention-purge',
          byApp: true,
          detail: {
            purge: {
              removed: purged.removed,
              lastRemovedSeq: purged.lastSeq,
              lastRemovedHash: purged.lastHash,
              cutoff,
              years,
            },
          },
        });
      return purged;
    });
  }

  private tick(): void {
    if (this.stopped) return;
    try {
      this.run();
    } catch (error) {
      this.o.onError?.(error);
    }
    this.handle = this.o.timers.setTimeout(() => this.tick(), this.o.everyMs ?? PURGE_EVERY_MS);
  }
}
