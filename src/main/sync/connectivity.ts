import type { ConnectivityEvent } from '../../shared/events';
import type { z } from 'zod';
import { systemClock, type Clock } from '../clock';
import type { CoreEventBus } from '../events';
import { systemTimers, type Timers } from '../timers';

export type ConnectivityState = z.infer<typeof ConnectivityEvent>;

export interface ConnectivityOptions {
  bus: CoreEventBus;
  /** true when the server answers at all; false on a network error (see httpProbe). */
  probe: () => Promise<boolean>;
  clock?: Clock;
  timers?: Timers;
  /** First wait before probing an unreachable server; doubles after each failed probe. Default 2 s. */
  initialBackoffMs?: number;
  /** Longest wait between probes. Default 60 s. */
  maxBackoffMs?: number;
  /** The state before anything is known. Default true: the first request tells. */
  initiallyOnline?: boolean;
}

export const DEFAULT_PROBE_BACKOFF_MS = 2_000;
export const DEFAULT_MAX_PROBE_BACKOFF_MS = 60_000;

/**
 * Online/offline state of the active connection. Fed by real traffic (the API client's
 * onReachability: any HTTP answer is reachable, a network error or timeout is not) and, while
 * offline, by a probe repeated on a backoff schedule (2 s doubling to 60 s by default). Emits a
 * `connectivity` event on the bus only when the state changes.
 */
export class Connectivity {
  private isOnline: boolean;
  private sinceMs: number;
  private backoffMs: number;
  private timer: unknown = null;
  private probing = false;
  private stopped = false;
  private waiters: (() => void)[] = [];
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;

  constructor(private readonly options: ConnectivityOptions) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.initialBackoffMs = options.initialBackoffMs ?? DEFAULT_PROBE_BACKOFF_MS;
    this.maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_PROBE_BACKOFF_MS;
    this.backoffMs = this.initialBackoffMs;
    this.isOnline = options.initiallyOnline ?? true;
    this.sinceMs = this.clock.now();
    if (!this.isOnline) this.schedule(0);
  }

  get online(): boolean {
    return this.isOnline;
  }

  /** The current state, as the `connectivity` event carries it (for a UI that just opened). */
  get state(): ConnectivityState {
    return { online: this.isOnline, since: new Date(this.sinceMs).toISOString() };
  }

  /** The wait before the next probe while offline (for the UI's "retrying in…"). */
  get nextProbeInMs(): number | null {
    return this.isOnline ? null : this.backoffMs;
  }

  /** Pass this as the API client's onReachability. */
  readonly report = (reachable: boolean): void => {
    if (this.stopped) return;
    if (reachable) {
      this.cancelTimer();
      this.backoffMs = this.initialBackoffMs;
      this.set(true);
    } else if (this.isOnline) {
      this.set(false);
      this.backoffMs = this.initialBackoffMs;
      this.schedule(this.backoffMs);
    }
  };

  /** Resolves at once when online, else when the connection comes back. */
  whenOnline(): Promise<void> {
    if (this.isOnline) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Probes now (e.g. the user pressed "retry"); the result updates the state. */
  async probeNow(): Promise<boolean> {
    if (this.probing || this.stopped) return this.isOnline;
    this.cancelTimer();
    this.probing = true;
    let reachable: boolean;
    try {
      reachable = await this.options.probe();
    } catch {
      reachable = false;
    } finally {
      this.probing = false;
    }
    if (this.stopped) return reachable;
    if (reachable) {
      this.report(true);
    } else {
      // A failed probe while we believed we were online also counts: the server is gone.
      if (this.isOnline) {
        this.set(false);
        this.backoffMs = this.initialBackoffMs;
      } else {
        this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
      }
      this.schedule(this.backoffMs);
    }
    return reachable;
  }

  /** Stops probing (shutdown or connection change). Pending whenOnline() promises stay pending. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer();
  }

  private set(online: boolean): void {
    if (online === this.isOnline) return;
    this.isOnline = online;
    this.sinceMs = this.clock.now();
    this.options.bus.emit('connectivity', this.state);
    if (online) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private schedule(ms: number): void {
    if (this.stopped || this.timer !== null) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.probeNow();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.timers.clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * A probe that calls `url` (the connection's auth URL): any HTTP answer, whatever its status,
 * means the server is reachable; a network error or timeout means it is not.
 */
export function httpProbe(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): () => Promise<boolean> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return async () => {
    try {
      const res = await fetchImpl(url, {
        method: 'GET',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel();
      return true;
    } catch {
      return false;
    }
  };
}
