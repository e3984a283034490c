import { describe, expect, it } from 'vitest';
import { parseWithinDays } from '@renderer/screens/refills/within-days';
import { daysLeftText } from '@renderer/lib/refills-format';

describe('refills: the days ahead typed', () => {
  it('takes a whole number from 0 to 365, spaces around it ignored', () => {
    expect(parseWithinDays('0')).toEqual({ ok: true, value: 0 });
    expect(parseWithinDays(' 45 ')).toEqual({ ok: true, value: 45 });
    expect(parseWithinDays('365')).toEqual({ ok: true, value: 365 });
  });

  it('refuses anything else with one message that says what to type', () => {
    for (const text of ['', ' ', '-1', '366', '1000', '1.5', '1e2', 'abc', '30 days'])
      expect(parseWithinDays(text), JSON.stringify(text)).toEqual({
        ok: false,
        message: 'Enter a whole number of days from 0 to 365.',
      });
  });
});

describe('refills: words', () => {
  it('says the days left, less than a day, and how long ago it ran out', () => {
    expect(daysLeftText(12)).toBe('12 days');
    expect(daysLeftText(1)).toBe('1 day');
    expect(daysLeftText(0)).toBe('Less than a day');
    expect(daysLeftText(-1)).toBe('Ran out 1 day ago');
    expect(daysLeftText(-10)).toBe('Ran out 10 days ago');
  });
});
