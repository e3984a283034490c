import type { Clock } from '../clock';
import type { Timers } from '../timers';

/**
 * Calls `fire(key)` at most once per `intervalMs` per key: a call inside the interval is folded
 * into one trailing call at its end (so the latest state is always sent); `flush(key)` fires at
 * once and cancels the trailing call (for a final state that must not wait or be lost).
 */
export class KeyedThrottle {
  private readonly last = new Map<string, number>();
  private readonly trailing = new Map<string, unknown>();

  constructor(
    private readonly intervalMs: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly fire: (key: string) => void,
  ) {}

  request(key: string): void {
    if (this.trailing.has(key)) return;
    const now = this.clock.now();
    const last = this.last.get(key);
    if (last === undefined || now - last >= this.intervalMs) {
      this.flush(key);
      return;
    }
    this.trailing.set(
      key,
      this.timers.setTimeout(
        () => {
          this.trailing.delete(key);
          this.flush(key);
        },
        last + this.intervalMs - now,
      ),
    );
  }

  flush(key: string): void {
    this.cancel(key);
    this.last.set(key, this.clock.now());
    this.fire(key);
  }

  cancel(key: string): void {
    const handle = this.trailing.get(key);
    if (handle !== undefined) this.timers.clearTimeout(handle);
    this.trailing.delete(key);
  }

  /** Cancels every trailing call (on shutdown). */
  clear(): void {
    for (const key of [...this.trailing.keys()]) this.cancel(key);
  }
}
