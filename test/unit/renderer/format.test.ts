import { describe, expect, it } from 'vitest';
import { dayRange } from '../../../src/renderer/src/lib/format';

describe('dayRange', () => {
  it('writes one number when the window is one day long', () => {
    expect(dayRange(2, 2)).toBe('2 days');
    expect(dayRange(1, 1)).toBe('1 day');
    expect(dayRange(1, 1, 'business day')).toBe('1 business day');
  });

  it('writes a range otherwise', () => {
    expect(dayRange(2, 5)).toBe('2–5 days');
    expect(dayRange(1, 3, 'business day')).toBe('1–3 business days');
  });
});
