import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageProblem } from '../shared/store-views';
import type { Clock } from './clock';
import { storageProblemMessage } from './db/fault-messages';
import type { StoreFault } from './db/store-faults';
import type { Timers } from './timers';

export interface StorageWatchOptions {
  dataDir: string;
  clock: Clock;
  timers: Timers;
  /** The problem changed (emitted after the failing call has returned). */
  emit(problem: StorageProblem): void;
  /** The disk takes writes again: wake what waits for it. */
  onWritable(): void;
  log(line: string): void;
  /** How often a refusing disk is tried again. Default 5 s. */
  probeMs?: number;
}

/** Bytes the probe writes: about what a few transactions need in the write-ahead log. */
const PROBE_BYTES = 256 * 1024;

/**
 * Whether the disk under the data folder takes writes. A full, read-only or failing disk is
 * reported by the stores' fault listeners (store-faults.ts) as it happens; from then on the
 * folder is probed every few seconds (a file of 256 KB written and removed) and the first probe
 * that succeeds clears the problem and wakes the job runner, so that the work resumes at once.
 * A committed transaction proves nothing: one that writes nothing, or fits in room the database
 * already has, commits on a full disk too. The user sees the problem as app.state's `storage`.
 */
export class StorageWatch {
  private problem: StorageProblem = null;
  private timer: unknown = null;
  private stopped = false;

  constructor(private readonly o: StorageWatchOptions) {}

  get current(): StorageProblem {
    return this.problem;
  }

  /** A write failed for `fault` (called from inside the failing call: nothing is done now). */
  fault(fault: Exclude<StoreFault, 'damaged'>): void {
    if (this.problem?.fault === fault) return;
    const problem = {
      fault,
      dataDir: this.o.dataDir,
      since: new Date(this.o.clock.now()).toISOString(),
      message: storageProblemMessage(fault, this.o.dataDir),
    };
    this.problem = problem;
    queueMicrotask(() => {
      this.o.log(`the disk refuses writes (${fault}): ${problem.message}`);
      this.o.emit(problem);
    });
    this.schedule();
  }

  /** The disk takes writes again (the probe succeeded). */
  private writable(): void {
    if (!this.problem) return;
    this.problem = null;
    this.cancel();
    queueMicrotask(() => {
      this.o.log('the disk takes writes again');
      this.o.emit(null);
      this.o.onWritable();
    });
  }

  stop(): void {
    this.stopped = true;
    this.cancel();
  }

  private schedule(): void {
    if (this.timer !== null || this.stopped) return;
    this.timer = this.o.timers.setTimeout(() => {
      this.timer = null;
      if (this.problem === null) return;
      if (probeWrite(this.o.dataDir)) this.writable();
      else this.schedule();
    }, this.o.probeMs ?? 5_000);
  }

  private cancel(): void {
    if (this.timer === null) return;
    this.o.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Writes and removes a small file in `dir`: true when the disk took it. */
function probeWrite(dir: string): boolean {
  const file = join(dir, '.order-desk-write-probe');
  try {
    writeFileSync(file, Buffer.alloc(PROBE_BYTES));
    return true;
  } catch {
    return false;
  } finally {
    rmSync(file, { force: true });
  }
}
