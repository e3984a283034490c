/** setTimeout/clearTimeout as a collaborator, so tests can run schedules without real waiting. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The same as realTimers (both names are in use). */
export const systemTimers: Timers = realTimers;

/**
 * A wait that a wake() ends early. The delay is capped so that a far-away wake-up (or Infinity:
 * "only when woken") never overflows setTimeout.
 */
export class Waiter {
  private pending: { resolve: () => void; handle: unknown } | null = null;
  private woken = false;

  constructor(private readonly timers: Timers) {}

  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        if (this.pending?.resolve !== done) return;
        this.timers.clearTimeout(this.pending.handle);
        this.pending = null;
        resolve();
      };
      const handle = Number.isFinite(ms)
        ? this.timers.setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)))
        : null;
      this.pending = { resolve: done, handle };
    });
  }

  /** Ends the current wait, or makes the next one return at once. */
  wake(): void {
    if (this.pending) this.pending.resolve();
    else this.woken = true;
  }
}
