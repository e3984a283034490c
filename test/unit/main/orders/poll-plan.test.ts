import { describe, expect, it } from 'vitest';
import { planPollCycle, pollIntervalMs } from '@main/orders/poll-plan';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('poll schedule', () => {
  it('backs off with age', () => {
    expect(pollIntervalMs(10 * MINUTE)).toBe(MINUTE);
    expect(pollIntervalMs(2 * HOUR)).toBe(5 * MINUTE);
    expect(pollIntervalMs(12 * HOUR)).toBe(15 * MINUTE);
    expect(pollIntervalMs(3 * 24 * HOUR)).toBe(HOUR);
    expect(pollIntervalMs(30 * 24 * HOUR)).toBe(6 * HOUR);
  });
});

describe('planPollCycle', () => {
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  it('uses gets when few orders are due', () => {
    expect(planPollCycle([0, 350, 900], 60)).toEqual({ pages: 0, coveredByPages: 0, gets: 3 });
  });

  it('walks pages when they cover the due orders in fewer requests', () => {
    expect(planPollCycle(range(0, 150), 60)).toEqual({ pages: 2, coveredByPages: 150, gets: 0 });
    expect(planPollCycle(range(0, 1000), 60)).toEqual({ pages: 10, coveredByPages: 1000, gets: 0 });
  });

  it('mixes pages for the newest and gets for a few old ones', () => {
    // 150 new orders and 3 old ones deep in the list.
    const plan = planPollCycle([...range(0, 150), 5000, 7000, 9000], 60);
    expect(plan).toEqual({ pages: 2, coveredByPages: 150, gets: 3 });
  });

  it('sees as many due orders as the budget allows, and never plans more than the budget', () => {
    const ranks = range(0, 1000).map((i) => i * 7); // spread over 70 pages
    for (const budget of [0, 1, 5, 60]) {
      const plan = planPollCycle(ranks, budget);
      expect(plan.pages + plan.gets).toBeLessThanOrEqual(budget);
    }
    const plan = planPollCycle(ranks, 60);
    expect(plan.coveredByPages + plan.gets).toBeGreaterThan(60);
  });

  it('"get" strategy never walks', () => {
    expect(planPollCycle(range(0, 150), 60, 'get')).toEqual({
      pages: 0,
      coveredByPages: 0,
      gets: 60,
    });
  });

  it('orders unknown to the mirror window can only be fetched', () => {
    expect(planPollCycle([Infinity, Infinity], 60)).toEqual({
      pages: 0,
      coveredByPages: 0,
      gets: 2,
    });
  });
});
