/**
 * One re-armable timer: `at(when)` makes the callback run at the earliest requested time.
 * Unref'd, so it never keeps a process alive on its own.
 */
export class Timer {
  private handle: NodeJS.Timeout | null = null;
  private dueAt = Infinity;

  constructor(private readonly callback: () => void) {}

  at(when: number | null, now: number): void {
    if (when === null) return;
    if (this.handle && when >= this.dueAt) return;
    this.cancel();
    this.dueAt = when;
    // setTimeout's limit is about 24.8 days; longer waits re-arm on the way.
    const delay = Math.min(Math.max(0, when - now), 2 ** 31 - 1);
    this.handle = setTimeout(() => {
      this.handle = null;
      this.dueAt = Infinity;
      this.callback();
    }, delay);
    this.handle.unref();
  }

  cancel(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = null;
    this.dueAt = Infinity;
  }
}
