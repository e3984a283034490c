import { describe, expect, it } from 'vitest';
import { ServerClock, observingServerTime } from '@main/api/server-clock';
import { steadyClock } from '@main/clock';

describe('steadyClock', () => {
  it('starts at the wall clock and then follows only the monotonic source', () => {
    let wall = 1_000_000;
    let elapsed = 10.6;
    const clock = steadyClock({ wall: { now: () => wall }, elapsed: () => elapsed });
    expect(clock.now()).toBe(1_000_000);
    wall -= 3_600_000; // the PC's clock is set back an hour
    elapsed += 250;
    expect(clock.now()).toBe(1_000_250);
    wall += 7_200_000;
    elapsed += 0.7;
    expect(clock.now()).toBe(1_000_250); // whole milliseconds, never back
  });
});

describe('ServerClock', () => {
  it('tells the server time from a Date header and carries it on the steady clock', () => {
    let steady = 5_000;
    const clock = new ServerClock({ now: () => steady });
    expect(clock.known).toBe(false);
    expect(clock.nowIfKnown()).toBeNull();
    expect(clock.now()).toBe(5_000);
    clock.observe('Wed, 25 Nov 2026 10:00:00 GMT');
    const at = Date.parse('2026-11-25T10:00:00Z') + 500;
    expect(clock.nowIfKnown()).toBe(at);
    steady += 90_000;
    expect(clock.now()).toBe(at + 90_000);
  });

  it('ignores an absent or unreadable header', () => {
    const clock = new ServerClock({ now: () => 0 });
    clock.observe(null);
    clock.observe('yesterday-ish');
    expect(clock.known).toBe(false);
  });

  it('learns only from JSON answers (not a portal page)', async () => {
    const clock = new ServerClock({ now: () => 0 });
    const answer = (type: string) =>
      new Response('x', {
        headers: { 'content-type': type, date: 'Thu, 01 Jan 2026 00:00:00 GMT' },
      });
    await observingServerTime(async () => answer('text/html'), clock)('http://x');
    expect(clock.known).toBe(false);
    await observingServerTime(
      async () => answer('application/json; charset=utf-8'),
      clock,
    )('http://x');
    expect(clock.nowIfKnown()).toBe(Date.parse('2026-01-01T00:00:00Z') + 500);
  });
});
