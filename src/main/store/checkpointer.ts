import type { Db } from './db';
import type { StoreWorker } from './store-worker';

/** SQLite's own threshold, restored whenever the worker cannot do the checkpoints. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** How often the worker is asked to checkpoint what the WAL holds. */
export const CHECKPOINT_INTERVAL_MS = 1000;

export interface CheckpointerOptions {
  intervalMs?: number;
  log?: (line: string) => void;
}

/**
 * WAL checkpoints on the store's worker thread. SQLite checkpoints in the connection that
 * commits, by default once the WAL holds 1,000 pages: that commit then copies the pages into the
 * database file and syncs it, 12–14 ms on our build machines, on the thread that also serves the
 * window. Here the main connection never checkpoints (wal_autocheckpoint 0) while the worker does
 * it every second with its own connection; a PASSIVE checkpoint runs beside the app's reads and
 * writes.
 *
 * Whenever the worker cannot do this job (it failed to start or to checkpoint, or stopped) the
 * main connection gets SQLite's own checkpoints back, so the WAL never grows without bound.
 */
export class BackgroundCheckpointer {
  private timer: ReturnType<typeof setInterval> | null = null;
  private inFlight = false;
  private active = false;
  private stopped = false;
  private readonly log: (line: string) => void;

  constructor(
    private readonly db: Db,
    private readonly worker: StoreWorker,
    options: CheckpointerOptions = {},
  ) {
    this.log = options.log ?? (() => undefined);
    const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    worker.once('ready', () => {
      if (this.stopped) return;
      // The database may have been closed without close() (then there is nothing to do).
      if (!this.db.open) return this.close();
      this.db.pragma('wal_autocheckpoint = 0');
      this.active = true;
      this.timer = setInterval(() => this.request(), intervalMs);
      this.timer.unref();
    });
    worker.once('stopped', (reason) => {
      if (reason !== 'closed') this.fallBack(reason);
    });
  }

  /** Whether the worker does the checkpoints (false until it is ready, and after a failure). */
  get running(): boolean {
    return this.active;
  }

  /** Asks for a checkpoint now (one at a time). */
  request(): void {
    if (!this.active || this.inFlight) return;
    this.inFlight = true;
    this.worker.checkpoint().then(
      () => {
        this.inFlight = false;
      },
      (error: unknown) => this.fallBack(error instanceof Error ? error.message : String(error)),
    );
  }

  /** Stops asking for checkpoints (the store closes the worker next). */
  close(): void {
    this.stopped = true;
    this.active = false;
    if (this.timer) clearInterval(this.timer);
  }

  private fallBack(reason: string): void {
    if (this.stopped) return;
    this.close();
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    this.log(`background checkpoints stopped (${reason}); SQLite checkpoints on commit again`);
  }
}
