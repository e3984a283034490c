import { describe, expect, it } from 'vitest';
import {
  dayFieldValue,
  formatDate,
  formatDateTime,
  formatMoment,
  formatRecent,
  formatTimeOfDay,
  isDayFieldValue,
  lastDayOfSupply,
} from '@renderer/lib/dates';

// Local times (the window shows the computer's time zone), so the test holds in any zone.
const afternoon = new Date(2026, 10, 26, 13, 5);
const morning = new Date(2026, 10, 26, 9, 30);
const now = new Date(2026, 10, 26, 18, 0);

describe('dates: one style for the whole window', () => {
  it('writes a day, a moment and a time of day, from an ISO string, epoch ms or a Date', () => {
    expect(formatDate(afternoon)).toBe('Nov 26, 2026');
    expect(formatDateTime(afternoon.toISOString())).toBe('Nov 26, 2026, 1:05 PM');
    expect(formatDateTime(afternoon.getTime())).toBe('Nov 26, 2026, 1:05 PM');
    expect(formatTimeOfDay(morning)).toBe('9:30 AM');
    expect(formatDate(new Date(2026, 0, 5))).toBe('Jan 5, 2026');
  });

  it('shows the time alone for a moment of today, else with its day', () => {
    expect(formatMoment(afternoon.toISOString(), now)).toBe('1:05 PM');
    expect(formatMoment(new Date(2026, 10, 25, 23, 59).getTime(), now)).toBe(
      'Nov 25, 2026, 11:59 PM',
    );
  });

  it('says today and yesterday where the app speaks relatively', () => {
    expect(formatRecent(afternoon.getTime(), now)).toBe('today, 1:05 PM');
    expect(formatRecent(new Date(2026, 10, 25, 8, 0).getTime(), now)).toBe('yesterday, 8:00 AM');
    expect(formatRecent(new Date(2026, 10, 20, 8, 0).getTime(), now)).toBe('Nov 20, 2026, 8:00 AM');
  });

  it('shows what is not a date as it came, and nothing for no value', () => {
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDateTime('2026-13-45')).toBe('2026-13-45');
    expect(formatMoment('soon', now)).toBe('soon');
    expect(formatDateTime(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
  });
});

describe('dates: a supply from its first day', () => {
  it('holds a day as a date field does, in the local calendar', () => {
    expect(dayFieldValue(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(isDayFieldValue('2026-11-26')).toBe(true);
    for (const bad of ['', '2026-11', '26/11/2026', '2026-02-30', '2026-13-01'])
      expect(isDayFieldValue(bad), bad).toBe(false);
  });

  it('counts the first day as one of the supply: 30 days from Nov 1 run through Nov 30', () => {
    expect(lastDayOfSupply('2026-11-01', 30)).toBe('2026-11-30');
    expect(lastDayOfSupply('2026-12-15', 30)).toBe('2027-01-13');
    expect(lastDayOfSupply('2028-02-01', 29)).toBe('2028-02-29');
    expect(lastDayOfSupply('2026-11-26', 1)).toBe('2026-11-26');
    expect(formatDate(lastDayOfSupply('2026-11-01', 90))).toBe('Jan 29, 2027');
  });

  it('has no last day for a day it cannot read or an empty supply', () => {
    expect(lastDayOfSupply('', 30)).toBeNull();
    expect(lastDayOfSupply('2026-02-30', 30)).toBeNull();
    expect(lastDayOfSupply('2026-11-01', 0)).toBeNull();
  });
});
