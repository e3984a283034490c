import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import type { Db } from './db';

/** SQLite's own threshold, restored whenever the worker cannot do the checkpoints. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** How often the worker is asked to checkpoint what the WAL holds. */
export const CHECKPOINT_INTERVAL_MS = 1000;
/** How long close() waits for the worker to close its connection. */
const CLOSE_WAIT_MS = 2000;

/**
 * The worker: its own connection to the same file, a PASSIVE checkpoint each time it is asked
 * (it never blocks the app's writes), and on 'close' it closes the connection, then says so
 * through the shared flag the main thread waits on. Plain CommonJS, evaluated as it is, so that
 * no bundler has to know of a second entry point; the driver is required by its resolved path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const closed = new Int32Array(workerData.closed);
let db = null;
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  parentPort.postMessage({ kind: 'ready' });
} catch (error) {
  parentPort.postMessage({ kind: 'failed', message: String((error && error.message) || error) });
}
parentPort.on('message', (message) => {
  if (message === 'close') {
    try { if (db) db.close(); } finally {
      Atomics.store(closed, 0, 1);
      Atomics.notify(closed, 0);
      parentPort.close();
    }
    return;
  }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ kind: 'checkpointed', log: result.log, checkpointed: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', message: String((error && error.message) || error) });
  }
});
`;

const WorkerMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('checkpointed'), log: z.int(), checkpointed: z.int() }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
]);

export interface CheckpointerOptions {
  intervalMs?: number;
  log?: (line: string) => void;
}

/**
 * WAL checkpoints on a worker thread. SQLite checkpoints in the connection that commits, by
 * default once the WAL holds 1,000 pages: that commit then copies the pages into the database
 * file and syncs it, 12–14 ms on our build machines, on the thread that also serves the window.
 * Here the main connection never checkpoints (wal_autocheckpoint 0) while a worker does it every
 * second with its own connection; a PASSIVE checkpoint runs beside the app's reads and writes.
 *
 * Whenever the worker cannot do its job (it failed to start or to checkpoint, or exited) the main
 * connection gets SQLite's own checkpoints back, so the WAL never grows without bound.
 */
export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private timer: ReturnType<typeof setInterval> | null = null;
  private inFlight = false;
  private active = false;
  private stopped = false;
  private readonly log: (line: string) => void;

  constructor(
    private readonly db: Db,
    file: string,
    options: CheckpointerOptions = {},
  ) {
    this.log = options.log ?? (() => undefined);
    const intervalMs = options.intervalMs ?? CHECKPOINT_INTERVAL_MS;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        closed: this.closed.buffer,
      },
    });
    this.worker.unref();
    this.worker.on('message', (raw: unknown) => {
      const message = WorkerMessage.safeParse(raw);
      if (!message.success) return this.fallBack('it sent an unreadable message');
      switch (message.data.kind) {
        case 'ready':
          if (this.stopped) return;
          // The database may have been closed without close() (then there is nothing to do).
          if (!this.db.open) return this.close();
          this.db.pragma('wal_autocheckpoint = 0');
          this.active = true;
          this.timer = setInterval(() => this.request(), intervalMs);
          this.timer.unref();
          return;
        case 'checkpointed':
          this.inFlight = false;
          return;
        case 'failed':
          return this.fallBack(message.data.message);
      }
    });
    this.worker.on('error', (error) => this.fallBack(String(error)));
    this.worker.on('exit', () => {
      if (!this.stopped) this.fallBack('its thread exited');
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
    this.worker.postMessage('checkpoint');
  }

  /**
   * Stops the worker and waits (briefly, synchronously) until its connection is closed, so that
   * the main connection, closed next, is the last one: SQLite then checkpoints and removes the WAL.
   */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.active = false;
    if (this.timer) clearInterval(this.timer);
    this.worker.postMessage('close');
    try {
      Atomics.wait(this.closed, 0, 0, CLOSE_WAIT_MS);
    } catch {
      // A host that forbids blocking waits: the WAL then stays until the next open, which is safe.
    }
  }

  private fallBack(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.active = false;
    if (this.timer) clearInterval(this.timer);
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    this.log(`background checkpoints stopped (${reason}); SQLite checkpoints on commit again`);
    void this.worker.terminate();
  }
}
