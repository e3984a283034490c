import type { Clock } from './clock';
import type { PollPace } from './orders/poll-plan';
import type { Timers } from './timers';

/** No input for this long and the user counts as away: the poller slows down. */
export const IDLE_AFTER_MS = 5 * 60_000;

/** What the window says of itself (the `app.presence` call). */
export interface PresenceReport {
  /** The page is shown (document.visibilityState), in Electron and in the browser host alike. */
  visible: boolean;
  /** The user did something in it just now (the window says so at most every 30 s). */
  input: boolean;
}

/**
 * Whether someone is looking at the app: a window shown whose user did something in the last
 * five minutes ('fast'), or not ('slow': hidden, idle, or no window has said anything yet). The
 * window is the one source, through `app.presence`; the idle time runs on the steady clock.
 */
export class Presence {
  private visible = false;
  private lastInputAt = -Infinity;
  private current: PollPace = 'slow';
  private idleTimer: unknown = null;
  private readonly listeners = new Set<(pace: PollPace) => void>();
  private readonly idleAfterMs: number;

  constructor(private readonly o: { clock: Clock; timers: Timers; idleAfterMs?: number }) {
    this.idleAfterMs = o.idleAfterMs ?? IDLE_AFTER_MS;
  }

  get pace(): PollPace {
    return this.current;
  }

  report({ visible, input }: PresenceReport): void {
    this.visible = visible;
    if (input) this.lastInputAt = this.o.clock.now();
    this.update();
  }

  /** Calls `listener` at each change of pace; returns the unsubscribe function. */
  onChange(listener: (pace: PollPace) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    if (this.idleTimer !== null) this.o.timers.clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.listeners.clear();
  }

  private update(): void {
    if (this.idleTimer !== null) this.o.timers.clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const left = this.lastInputAt + this.idleAfterMs - this.o.clock.now();
    const active = this.visible && left > 0;
    if (active)
      this.idleTimer = this.o.timers.setTimeout(() => {
        this.idleTimer = null;
        this.update();
      }, left);
    const pace: PollPace = active ? 'fast' : 'slow';
    if (pace === this.current) return;
    this.current = pace;
    for (const listener of this.listeners) listener(pace);
  }
}
