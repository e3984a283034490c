import type { ChangeSubject } from '@shared/core-events';
import {
  subjectsOfRead,
  type IpcArgs,
  type IpcError,
  type IpcResult,
  type IpcValue,
  type ReadChannel,
} from '@shared/ipc';
import { createCoalescer, type Coalescer } from './coalesce';
import { call, on } from './ipc';

/**
 * The renderer's one way to read data from main (after Actual Budget's liveQuery): a query reads
 * through the `read` it is given, and reads again after each `changed` event that names a subject
 * of a channel it read (the contract states each read channel's subjects). What it reads with
 * plain `call` it reads once. Answers to a read that was replaced (new arguments, the query
 * closed) are dropped here, so no store or screen keeps counters of its own.
 */

/** A read channel called from a query: the query now depends on the channel's subjects. */
export type Read = <C extends ReadChannel>(
  channel: C,
  args: IpcArgs<C>,
) => Promise<IpcResult<IpcValue<C>>>;

/** What a live query reads, through `read`. */
export type Query<T> = (read: Read) => Promise<IpcResult<T>>;

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

/**
 * The subjects of the channels read through `read`, kept for the query's life (a query reading
 * a channel only sometimes listens from its first read of it), and `changed` events naming one.
 */
export function dependencies(onChange: () => void): { read: Read; stop(): void } {
  const subjects = new Set<ChangeSubject>();
  const stop = onChanged((changed) => {
    for (const subject of changed) if (subjects.has(subject)) return onChange();
  });
  const read: Read = (channel, args) => {
    for (const subject of subjectsOfRead(channel)) subjects.add(subject);
    return call(channel, args);
  };
  return { read, stop };
}

export interface LiveQueryOptions<T> {
  /** The read; replaced with `setRead` when the query's arguments change. */
  read: Query<T>;
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
  private read: Query<T>;
  private readonly through: Read;
  /** Bumped by setRead: an answer to an older read is dropped. */
  private version = 0;
  private closed = false;
  private readonly reads: Coalescer;
  private readonly stop: () => void;

  constructor(private readonly o: LiveQueryOptions<T>) {
    this.read = o.read;
    this.reads = rereader(() => this.run(), o.pace);
    const deps = dependencies(() => this.reads.request());
    this.through = deps.read;
    this.stop = deps.stop;
    this.reads.flush();
  }

  get current(): QueryState<T> {
    return this.state;
  }

  /** New arguments: read with them as soon as the read in flight (if any) is in. */
  setRead(read: Query<T>): void {
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
    const result = await this.read(this.through);
    if (this.closed || version !== this.version) return;
    this.state = result.ok
      ? { status: 'ready', data: result.value, error: null }
      : { status: 'failed', data: this.state.data, error: result.error };
    this.o.onState(this.state);
  }
}
