import { describe, expect, it } from 'vitest';
import { dateBounds, matchOf, rangeProblem } from '@renderer/lib/order-filters';
import { OrderMatch } from '@shared/work-views';

const local = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) =>
  new Date(y, m - 1, d, h, min, s, ms).toISOString();

describe('the order queue filter', () => {
  const now = new Date(2026, 10, 24, 15, 30); // 24 Nov 2026, 15:30 local

  it('counts presets back in whole local days from today, open towards now', () => {
    expect(dateBounds({ preset: 'today', customFrom: '', customTo: '' }, now)).toEqual({
      createdFrom: local(2026, 11, 24),
    });
    expect(dateBounds({ preset: '7d', customFrom: '', customTo: '' }, now)).toEqual({
      createdFrom: local(2026, 11, 18),
    });
    expect(dateBounds({ preset: '30d', customFrom: '', customTo: '' }, now)).toEqual({
      createdFrom: local(2026, 10, 26),
    });
    expect(dateBounds({ preset: 'all', customFrom: '2020-01-01', customTo: '' }, now)).toEqual({});
  });

  it('takes a custom range from the start of its first day to the end of its last', () => {
    const bounds = dateBounds(
      { preset: 'custom', customFrom: '2026-01-01', customTo: '2026-01-31' },
      now,
    );
    expect(bounds).toEqual({
      createdFrom: local(2026, 1, 1),
      createdTo: local(2026, 1, 31, 23, 59, 59, 999),
    });
    // What the contract accepts.
    expect(OrderMatch.safeParse(bounds).success).toBe(true);
    expect(dateBounds({ preset: 'custom', customFrom: '', customTo: '2026-01-31' }, now)).toEqual({
      createdTo: local(2026, 1, 31, 23, 59, 59, 999),
    });
  });

  it('refuses a range that ends before it starts, on the end field, and then filters nothing', () => {
    expect(rangeProblem('2026-02-15', '2026-01-31')).toEqual({
      field: 'to',
      message: 'The end date is before the start date.',
    });
    expect(rangeProblem('2026-01-31', '2026-01-31')).toBeNull();
    expect(rangeProblem('not a date', '')).toMatchObject({ field: 'from' });
    expect(
      dateBounds({ preset: 'custom', customFrom: '2026-02-15', customTo: '2026-01-31' }, now),
    ).toEqual({});
  });

  it('sends the trimmed search and leaves out an empty one', () => {
    const base = { statuses: [], preset: 'all', customFrom: '', customTo: '' } as const;
    expect(matchOf({ ...base, search: '  ada  ' }, now)).toEqual({ search: 'ada' });
    expect(matchOf({ ...base, search: '   ' }, now)).toEqual({});
  });
});
