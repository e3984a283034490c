import type { ChangeSubject } from '@shared/events';
import type { IpcError, IpcResult } from '@shared/ipc';
import { createCoalescer, type Coalescer } from './coalesce';
import { on } from './ipc';

/**
 * The renderer's one way to read data from main (after Actual Budget's liveQuery): a query names
 * the subjects it reads, reads once, and reads again after each `changed` event that names one
 * of them. Answers to a read that was replaced (new arguments, the query closed) are dropped here,
 * so no store or screen keeps counters of its own.
 */

type ChangeListener = (subjects: ReadonlySet<ChangeSubject>) => void;
const listeners = new Set<ChangeListener>();
let unsubscribe: (() => void) | null = null;

/** Calls `listener` with the subjects of each `changed` event, until the returned function. */
export function onChanged(listener: ChangeListener): () => void {
  listeners.add(listener);
  unsubscribe ??= on('changed', ({ subjects }) => {
    const changed = new Set(subjects);
    for (const l of [...listeners]) l(changed);
  });
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && unsubscribe) {
      unsubscribe();
      unsubscribe = null;
    }
  };
}

/** What a live query holds: its data once read, and the failure of its last read, if any. */
export type QueryState<T> =
  | { status: 'loading'; data: null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'failed'; data: T | null; error: IpcError };

/**
 * How often a query re-reads while changes keep coming: a change after a quiet moment is read at
 * once (a status change reaches the screen in the next frame); a burst (a batch sending hundreds
 * of orders) is read at most every REREAD_MS, and reads take at most a fifth of the time.
 */
export const REREAD_MS = 50;
const REST_FACTOR = 4;

/** How often a query re-reads under a stream of changes (see REREAD_MS); a query may ask less. */
export interface Pace {
  /** Least time from the start of one read to the start of the next. */
  intervalMs: number;
  /** Least rest after a read, as a multiple of how long it took. */
  restFactor: number;
}
export const DEFAULT_PACE: Pace = { intervalMs: REREAD_MS, restFactor: REST_FACTOR };

/** The part of the page's document a query looks at (absent where the layer runs in tests). */
interface PageVisibility {
  visibilityState: string;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

/** Resolves when the window is shown (at once when it is): a hidden window reads nothing. */
function whenShown(): Promise<void> {
  const page = (globalThis as { document?: PageVisibility }).document;
  if (!page || page.visibilityState !== 'hidden') return Promise.resolve();
  return new Promise((resolve) => {
    const shown = () => {
      if (page.visibilityState === 'hidden') return;
      page.removeEventListener('visibilitychange', shown);
      resolve();
    };
    page.addEventListener('visibilitychange', shown);
  });
}

/**
 * Reads again on a change, at most one read in flight: the scheduling every query shares. While
 * the window is hidden the read waits to be shown, and the changes meanwhile make one read then.
 */
export function rereader(read: () => Promise<void>, pace: Pace = DEFAULT_PACE): Coalescer {
  return createCoalescer(
    async () => {
      await whenShown();
      await read();
    },
    { intervalMs: pace.intervalMs, restFactor: pace.restFactor },
  );
}

export interface LiveQueryOptions<T> {
  /** The read; replaced with `setRead` when the query's arguments change. */
  read: () => Promise<IpcResult<T>>;
  /** The subjects whose changes make it read again. */
  subjects: readonly ChangeSubject[];
  /** Told of each new state. */
  onState: (state: QueryState<T>) => void;
  pace?: Pace;
}

/**
 * One query, kept up to date until `close`. A failed re-read keeps the data shown (with the error
 * beside it); the next change, or `refresh`, tries again.
 */
export class LiveQuery<T> {
  private state: QueryState<T> = { status: 'loading', data: null, error: null };
  private read: () => Promise<IpcResult<T>>;
  /** Bumped by setRead: an answer to an older read is dropped. */
  private version = 0;
  private closed = false;
  private readonly reads: Coalescer;
  private readonly stop: () => void;

  constructor(private readonly o: LiveQueryOptions<T>) {
    this.read = o.read;
    this.reads = rereader(() => this.run(), o.pace);
    const subjects = new Set(o.subjects);
    this.stop = onChanged((changed) => {
      for (const subject of changed) if (subjects.has(subject)) return this.reads.request();
    });
    this.reads.flush();
  }

  get current(): QueryState<T> {
    return this.state;
  }

  /** New arguments: read with them as soon as the read in flight (if any) is in. */
  setRead(read: () => Promise<IpcResult<T>>): void {
    this.read = read;
    this.version++;
    this.reads.flush();
  }

  /** Reads again now (a retry after a failure). */
  refresh(): void {
    this.reads.flush();
  }

  close(): void {
    this.closed = true;
    this.stop();
    this.reads.cancel();
  }

  private async run(): Promise<void> {
    const version = this.version;
    const result = await this.read();
    if (this.closed || version !== this.version) return;
    this.state = result.ok
      ? { status: 'ready', data: result.value, error: null }
      : { status: 'failed', data: this.state.data, error: result.error };
    this.o.onState(this.state);
  }
}
