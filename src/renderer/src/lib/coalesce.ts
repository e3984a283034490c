export interface Coalescer {
  /** Asks for a run; many asks before it starts make one run. */
  request(): void;
  /** Runs now, synchronously (or right after the run in flight), skipping the wait. */
  flush(): void;
  /** Forgets what was asked; a run in flight finishes but nothing follows it. */
  cancel(): void;
}

export interface CoalescerOptions {
  /** Least time from the start of one run to the start of the next. */
  intervalMs: number;
  /**
   * Least rest after a run, as a multiple of how long that run took: with 19, runs take at most
   * 1/20 of the time however slow they get (a big batch's items, a busy machine). Default 0.
   */
  restFactor?: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Turns a stream of "something changed" signals into few runs of `run`: at most one per
 * `intervalMs` (and a rest in proportion to how long the last run took), never two at once (an
 * ask during a run makes one more run after it), and none lost (the last ask is always followed
 * by a run). For work that re-reads state, such as the
 * items of a batch while hundreds of progress events arrive.
 */
export function createCoalescer(run: () => Promise<void> | void, o: CoalescerOptions): Coalescer {
  const now = o.now ?? (() => Date.now());
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  let timer: unknown = null;
  let running = false;
  let asked = false;
  let urgent = false;
  let lastStart = -Infinity;
  let restUntil = -Infinity;

  const start = () => {
    timer = null;
    if (running || !asked) return;
    asked = false;
    urgent = false;
    running = true;
    lastStart = now();
    let result: Promise<void> | void;
    try {
      result = run();
    } catch {
      result = undefined;
    }
    void Promise.resolve(result)
      .catch(() => undefined)
      .finally(() => {
        running = false;
        const end = now();
        restUntil = end + (end - lastStart) * (o.restFactor ?? 0);
        if (asked) schedule();
      });
  };

  const schedule = () => {
    if (running || timer !== null) return;
    const wait = urgent ? 0 : Math.max(0, lastStart + o.intervalMs - now(), restUntil - now());
    timer = setTimer(start, wait);
  };

  return {
    request() {
      asked = true;
      schedule();
    },
    flush() {
      asked = true;
      urgent = true;
      if (timer !== null) {
        clearTimer(timer);
        timer = null;
      }
      // Idle: run now, not after a timer's turn (a new search goes out with the keystroke).
      if (!running) start();
      else schedule();
    },
    cancel() {
      asked = false;
      urgent = false;
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
  };
}
