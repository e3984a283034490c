/** Time source of the main-process services; tests pass their own. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The PC's wall clock: what dates shown to the user are counted from (it may be wrong or jump). */
export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock for schedules and the local store's timestamps that no change of the PC's clock moves:
 * it reads the wall clock once, then advances with a monotonic source (performance.now), so a
 * wait scheduled on it is as long as asked whichever way the PC's clock is set meanwhile. Its
 * readings stay whole epoch milliseconds, true at the start of the process.
 */
export function steadyClock(options: { wall?: Clock; elapsed?: () => number } = {}): Clock {
  const elapsed = options.elapsed ?? (() => performance.now());
  const origin = (options.wall ?? systemClock).now() - elapsed();
  return { now: () => Math.floor(origin + elapsed()) };
}
