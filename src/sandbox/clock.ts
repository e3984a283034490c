/** Time source of the sandbox; tests pass their own. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const isoAt = (ms: number): string => new Date(ms).toISOString();
