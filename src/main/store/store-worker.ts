import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';

/** How long close() waits for the worker to close its connection. */
const CLOSE_WAIT_MS = 2000;

/**
 * One statement of a write plan. `params` are bound as given (positional values, or one object
 * of named ones). `expect`: 'change' refuses the whole plan when the statement changes no row;
 * 'rows' returns the statement's rows (a RETURNING clause); 'any' neither.
 */
export interface PlanStep {
  sql: string;
  params: readonly unknown[];
  expect: 'change' | 'rows' | 'any';
}

/** Statements that commit together or not at all. */
export type WritePlan = readonly PlanStep[];

/** The worker refused a plan: it rolled back, nothing of it was written. */
export class PlanRefusedError extends Error {
  override readonly name = 'PlanRefusedError';
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** The worker stopped while a request was in flight: whether it committed is unknown. */
export class StoreWorkerLostError extends Error {
  override readonly name = 'StoreWorkerLostError';
}

export interface CheckpointResult {
  /** WAL frames, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

/**
 * The worker: its own connection to the store's file (same pragmas as the main one), WAL
 * checkpoints, and write plans each in one IMMEDIATE transaction. On 'close' it closes the
 * connection, then says so through the shared flag the main thread waits on. Plain CommonJS,
 * evaluated as it is, so that no bundler has to know of a second entry point; the driver is
 * required by its resolved path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const closed = new Int32Array(workerData.closed);
let db = null;
const statements = new Map();
function prepared(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}
function write(plan) {
  const rows = [];
  db.exec('BEGIN IMMEDIATE');
  try {
    plan.forEach((step, i) => {
      const statement = prepared(step.sql);
      if (step.expect === 'rows') rows.push(statement.all(...step.params));
      else if (statement.run(...step.params).changes === 0 && step.expect === 'change')
        throw Object.assign(new Error('step ' + i + ' of the plan changed no row'), { code: 'NO_CHANGE' });
    });
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return rows;
}
try {
  const Database = require(workerData.driver);
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  parentPort.postMessage({ kind: 'ready' });
} catch (error) {
  parentPort.postMessage({ kind: 'failed', message: String((error && error.message) || error) });
}
parentPort.on('message', (message) => {
  if (message.kind === 'close') {
    try { if (db) db.close(); } finally {
      Atomics.store(closed, 0, 1);
      Atomics.notify(closed, 0);
      parentPort.close();
    }
    return;
  }
  try {
    if (message.kind === 'checkpoint') {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      parentPort.postMessage({ kind: 'checkpointed', id: message.id, log: result.log, checkpointed: result.checkpointed });
    } else {
      parentPort.postMessage({ kind: 'written', id: message.id, rows: write(message.plan) });
    }
  } catch (error) {
    parentPort.postMessage({
      kind: 'refused',
      id: message.id,
      message: String((error && error.message) || error),
      code: (error && typeof error.code === 'string') ? error.code : null,
    });
  }
});
`;

const WorkerMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('failed'), message: z.string() }),
  z.object({ kind: z.literal('checkpointed'), id: z.int(), log: z.int(), checkpointed: z.int() }),
  z.object({ kind: z.literal('written'), id: z.int(), rows: z.array(z.array(z.unknown())) }),
  z.object({
    kind: z.literal('refused'),
    id: z.int(),
    message: z.string(),
    code: z.string().nullable(),
  }),
]);

interface Waiting {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

export interface StoreWorkerEvents {
  /** The worker's connection is open: requests are served. */
  ready: [];
  /** The worker stopped for good (it failed, exited or was closed); `reason` says why. */
  stopped: [reason: string];
}

/**
 * A worker thread with its own connection to the store's file, for the store's work that need
 * not block the main thread, which also serves the window: WAL checkpoints (BackgroundCheckpointer)
 * and prepared write transactions (RunLedger's commits). Requests are answered in the order they
 * were sent. When the worker cannot go on it stops for good: requests in flight then fail with
 * StoreWorkerLostError, and `running` is false, so callers do the work on the main connection.
 */
export class StoreWorker extends EventEmitter<StoreWorkerEvents> {
  private readonly worker: Worker;
  private readonly closed = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private ready = false;
  private stopped = false;

  constructor(file: string) {
    super();
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        file,
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        closed: this.closed.buffer,
      },
    });
    this.worker.unref();
    this.worker.on('message', (raw: unknown) => this.receive(raw));
    this.worker.on('error', (error) => this.stop(String(error)));
    this.worker.on('exit', () => this.stop('its thread exited'));
  }

  /** Whether requests are served (false until the worker is ready, and once it stopped). */
  get running(): boolean {
    return this.ready && !this.stopped;
  }

  /** A PASSIVE checkpoint: it never blocks the main connection's reads and writes. */
  checkpoint(): Promise<CheckpointResult> {
    return this.request({ kind: 'checkpoint' });
  }

  /**
   * Runs `plan` in one IMMEDIATE transaction; resolves with the rows of its 'rows' steps, in order.
   * Rejects with PlanRefusedError when it rolled back (a step failed or changed no row where it
   * had to) or could not be sent (code NOT_SENT: a parameter a thread cannot receive), with
   * StoreWorkerLostError when the worker stopped before answering.
   */
  write(plan: WritePlan): Promise<unknown[][]> {
    return this.request({ kind: 'write', plan });
  }

  /**
   * Stops the worker and waits (briefly, synchronously) until its connection is closed, so that
   * the main connection, closed next, is the last one: SQLite then checkpoints and removes the WAL.
   */
  close(): void {
    if (this.stopped) return;
    this.worker.postMessage({ kind: 'close' });
    this.stop('closed');
    try {
      Atomics.wait(this.closed, 0, 0, CLOSE_WAIT_MS);
    } catch {
      // A host that forbids blocking waits: the WAL then stays until the next open, which is safe.
    }
  }

  private request<T>(message: { kind: 'checkpoint' } | { kind: 'write'; plan: WritePlan }) {
    if (!this.running)
      return Promise.reject(new StoreWorkerLostError('The store worker is not running.'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      try {
        this.worker.postMessage({ ...message, id });
      } catch (error) {
        // Nothing reached the thread (a value it cannot receive): refused, the worker goes on.
        reject(
          new PlanRefusedError(
            `The request could not be sent to the store worker: ${String(error)}`,
            'NOT_SENT',
          ),
        );
        return;
      }
      this.waiting.set(id, { resolve: resolve as (value: never) => void, reject });
    });
  }

  private receive(raw: unknown): void {
    const parsed = WorkerMessage.safeParse(raw);
    if (!parsed.success) return this.stop('it sent an unreadable message');
    const message = parsed.data;
    switch (message.kind) {
      case 'ready':
        if (this.stopped) return;
        this.ready = true;
        this.emit('ready');
        return;
      case 'failed':
        return this.stop(message.message);
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return this.stop(`it answered request ${message.id}, which is not waiting`);
    this.waiting.delete(message.id);
    if (message.kind === 'refused')
      waiting.reject(new PlanRefusedError(message.message, message.code));
    else if (message.kind === 'written') waiting.resolve(message.rows as never);
    else waiting.resolve({ log: message.log, checkpointed: message.checkpointed } as never);
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const waiting of this.waiting.values())
      waiting.reject(new StoreWorkerLostError(`The store worker stopped (${reason}).`));
    this.waiting.clear();
    if (reason !== 'closed') void this.worker.terminate();
    this.emit('stopped', reason);
  }
}
