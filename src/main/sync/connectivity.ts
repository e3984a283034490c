import type { ConnectivityEvent, OfflineReason } from '@shared/core-events';
import type { z } from 'zod';
import { notTheApi } from '../api/http';
import type { UnreachableReason } from '../api/transport';
import { systemClock, type Clock } from '../clock';
import type { CoreEventBus } from '../core-event-bus';
import { systemTimers, type Timers } from '../timers';

export type ConnectivityState = z.infer<typeof ConnectivityEvent>;

/** What a probe found: reachable (true), or why not (false is 'network'). */
export type ProbeResult = boolean | UnreachableReason;

export interface ConnectivityOptions {
  bus: CoreEventBus;
  /** true when the server answers as the API does; false or a reason when not (see httpProbe). */
  probe: () => Promise<ProbeResult>;
  clock?: Clock;
  timers?: Timers;
  /** First wait before probing an unreachable server; doubles after each failed probe. Default 2 s. */
  initialBackoffMs?: number;
  /** Longest wait between probes. Default 60 s. */
  maxBackoffMs?: number;
  /** The state before anything is known. Default true: the first request tells. */
  initiallyOnline?: boolean;
  /**
   * Whether the keychain gives the connection's secret now: asked every SECRET_RECHECK_MS while
   * sending is held for a missing secret (a keychain unlocked later resumes it by itself).
   */
  secretReadable?: () => Promise<boolean>;
  /** How often a missing secret is looked for. Default SECRET_RECHECK_MS. */
  secretRecheckMs?: number;
}

/** How often a missing secret is looked for again in the keychain. */
export const SECRET_RECHECK_MS = 30_000;

export const DEFAULT_PROBE_BACKOFF_MS = 2_000;
export const DEFAULT_MAX_PROBE_BACKOFF_MS = 60_000;

/**
 * Whether the active connection may send, and if not, why: it must be reachable (judged by real
 * traffic, and while unreachable by a probe on a backoff, 2 s doubling to 60 s) and its
 * credentials not refused (until new ones are accepted). Emits `connectivity` on the bus only
 * when the state or its reason changes. What counts as reachable: docs/decisions.md,
 * "Main process: protocols, sync and conflicts" (Connectivity).
 */
export class Connectivity {
  private reachable: boolean;
  private unreachableReason: UnreachableReason = 'network';
  /** Why the credentials hold sending (refused, or not in the keychain), or null. */
  private heldFor: 'credentials-rejected' | 'credentials-missing' | null = null;
  private recheckTimer: unknown = null;
  private shown: { online: boolean; reason: OfflineReason | null };
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
    this.reachable = options.initiallyOnline ?? true;
    this.shown = this.derived();
    this.sinceMs = this.clock.now();
    if (!this.reachable) this.schedule(0);
  }

  /** Whether requests are sent now: the server is reachable and the credentials not refused. */
  get online(): boolean {
    return this.shown.online;
  }

  /** Why it is not online (null while online). */
  get reason(): OfflineReason | null {
    return this.shown.reason;
  }

  /** True while the credentials hold sending: nothing is sent, not even when the user asks. */
  get held(): boolean {
    return this.heldFor !== null;
  }

  /** The current state, as the `connectivity` event carries it (for a UI that just opened). */
  get state(): ConnectivityState {
    return { ...this.shown, since: new Date(this.sinceMs).toISOString() };
  }

  /** The wait before the next probe while unreachable (for the UI's "retrying in…"). */
  get nextProbeInMs(): number | null {
    return this.reachable ? null : this.backoffMs;
  }

  /** Pass this as the API client's onReachability. */
  readonly report = (reachable: boolean, reason: UnreachableReason = 'network'): void => {
    if (this.stopped) return;
    if (reachable) {
      this.cancelTimer();
      this.backoffMs = this.initialBackoffMs;
      this.setReachable(true);
    } else {
      this.unreachableReason = reason;
      if (this.reachable) {
        this.setReachable(false);
        this.backoffMs = this.initialBackoffMs;
        this.schedule(this.backoffMs);
      } else this.update();
    }
  };

  /** The credentials were refused: sending stops at once, until credentialsAccepted. */
  readonly credentialsRejected = (): void => {
    if (this.stopped || this.heldFor === 'credentials-rejected') return;
    this.cancelRecheck();
    this.heldFor = 'credentials-rejected';
    this.update();
  };

  /**
   * The keychain did not give the secret: sending stops until it does (looked for again every
   * SECRET_RECHECK_MS) or new credentials are accepted. A refusal already holding stays.
   */
  readonly credentialsMissing = (): void => {
    if (this.stopped || this.heldFor !== null) return;
    this.heldFor = 'credentials-missing';
    this.update();
    this.scheduleRecheck();
  };

  /** New credentials were accepted: sending resumes (when the server is reachable). */
  readonly credentialsAccepted = (): void => {
    if (this.stopped || this.heldFor === null) return;
    this.cancelRecheck();
    this.heldFor = null;
    this.update();
  };

  /** Resolves at once when online, else when the connection comes back. */
  whenOnline(): Promise<void> {
    if (this.online) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Probes now (e.g. the user pressed "retry"); the result updates the state. */
  async probeNow(): Promise<boolean> {
    if (this.probing || this.stopped) return this.reachable;
    this.cancelTimer();
    this.probing = true;
    let result: ProbeResult;
    try {
      result = await this.options.probe();
    } catch {
      result = false;
    } finally {
      this.probing = false;
    }
    if (this.stopped) return result === true;
    if (result === true) {
      this.report(true);
    } else {
      this.unreachableReason = result === false ? 'network' : result;
      // A failed probe while we believed the server reachable also counts: it is gone.
      if (this.reachable) {
        this.setReachable(false);
        this.backoffMs = this.initialBackoffMs;
      } else {
        this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
        this.update();
      }
      this.schedule(this.backoffMs);
    }
    return result === true;
  }

  /** Stops probing (shutdown or connection change). Pending whenOnline() promises stay pending. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer();
    this.cancelRecheck();
  }

  private scheduleRecheck(): void {
    const readable = this.options.secretReadable;
    if (!readable || this.recheckTimer !== null) return;
    this.recheckTimer = this.timers.setTimeout(() => {
      this.recheckTimer = null;
      void readable()
        .catch(() => false)
        .then((ok) => {
          if (this.heldFor !== 'credentials-missing' || this.stopped) return;
          if (ok) this.credentialsAccepted();
          else this.scheduleRecheck();
        });
    }, this.options.secretRecheckMs ?? SECRET_RECHECK_MS);
  }

  private cancelRecheck(): void {
    if (this.recheckTimer === null) return;
    this.timers.clearTimeout(this.recheckTimer);
    this.recheckTimer = null;
  }

  private derived(): { online: boolean; reason: OfflineReason | null } {
    if (this.heldFor) return { online: false, reason: this.heldFor };
    if (!this.reachable) return { online: false, reason: this.unreachableReason };
    return { online: true, reason: null };
  }

  private setReachable(reachable: boolean): void {
    this.reachable = reachable;
    this.update();
  }

  /** Emits the state when it or its reason changed; wakes whoever waits for online. */
  private update(): void {
    const next = this.derived();
    if (next.online === this.shown.online && next.reason === this.shown.reason) return;
    const cameOnline = next.online && !this.shown.online;
    this.shown = next;
    this.sinceMs = this.clock.now();
    this.options.bus.emit('connectivity', this.state);
    if (cameOnline) {
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
 * A probe that calls `url` without credentials. Reachable when the server answers as the API
 * does, whatever its status (a 400 or 404 with a JSON body is the server speaking); not when the
 * request fails or times out ('network'), nor when the answer is not the API's (notTheApi: a
 * captive portal's sign-in page, 'not-api'). `form`: POSTed form-encoded (the token endpoint,
 * whose errors are JSON by RFC 6749 5.2, so a real sign-in server never answers it with a page).
 */
export function httpProbe(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number; form?: Record<string, string> } = {},
): () => Promise<ProbeResult> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return async () => {
    try {
      const res = await fetchImpl(url, {
        headers: { accept: 'application/json' },
        ...(options.form
          ? { method: 'POST', body: new URLSearchParams(options.form) }
          : { method: 'GET' }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      return notTheApi(res.status, res.headers, text) ? 'not-api' : true;
    } catch {
      return false;
    }
  };
}
