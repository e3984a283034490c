import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescer } from '@renderer/lib/coalesce';

describe('createCoalescer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('makes one run of many asks, and at most one run per interval', async () => {
    let runs = 0;
    const c = createCoalescer(() => void runs++, { intervalMs: 250 });
    for (let i = 0; i < 1000; i++) c.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    // 1,000 more asks spread over one second: four more runs, never one per ask.
    for (let t = 0; t < 1000; t++) {
      c.request();
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(250);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(runs).toBeLessThanOrEqual(6);
  });

  it('never runs twice at once, and an ask during a run is followed by one more run', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let finish: () => void = () => undefined;
    const c = createCoalescer(
      () =>
        new Promise<void>((resolve) => {
          runs++;
          active++;
          most = Math.max(most, active);
          finish = () => {
            active--;
            resolve();
          };
        }),
      { intervalMs: 10 },
    );
    c.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    c.request();
    c.request();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1); // still in flight
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(2);
    expect(most).toBe(1);
  });

  it('flush skips the wait; cancel forgets what was asked; a failed run does not stop it', async () => {
    let runs = 0;
    const c = createCoalescer(
      () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
      { intervalMs: 1000 },
    );
    c.request();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    c.request();
    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    c.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    c.request();
    c.cancel();
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(2);
  });
});

describe('createCoalescer with a rest in proportion to the run', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits restFactor times the last run after it ends: slow runs take a bounded share of time', async () => {
    const starts: number[] = [];
    const c = createCoalescer(
      () => {
        starts.push(Date.now());
        return new Promise<void>((resolve) => setTimeout(resolve, 100));
      },
      { intervalMs: 250, restFactor: 9 },
    );
    for (let t = 0; t < 5000; t += 10) {
      c.request();
      await vi.advanceTimersByTimeAsync(10);
    }
    // Each run takes 100 ms and is followed by 900 ms of rest: one start per second.
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    expect(starts.length).toBeGreaterThanOrEqual(4);
    expect(starts.length).toBeLessThanOrEqual(6);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000);
  });
});
