import { describe, expect, it } from 'vitest';
import { dayRange, servingText } from '@renderer/lib/format';

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

describe('servingText', () => {
  it('names one serving as the facts panel gives it', () => {
    expect(servingText({ servingSize: 1, type: 'scoop' })).toBe('1 scoop');
    expect(servingText({ servingSize: 2, type: 'capsule' })).toBe('2 capsules');
    expect(servingText({ servingSize: 2, type: 'gummy' })).toBe('2 gummies');
    // A type the app does not know, as it came.
    expect(servingText({ servingSize: 2, type: 'dropper' })).toBe('2 dropper');
  });
});
