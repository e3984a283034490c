import { describe, expect, it } from 'vitest';
import { linkAway } from '@renderer/stores/toast-store';

const batch = { route: '/batches/b%201', label: 'Open the batch' };

describe("a toast's link", () => {
  it('is left out on the screen it leads to', () => {
    expect(linkAway(batch, '/batches/b%201')).toBeNull();
    // The address bar may spell the same route decoded, or with a trailing slash.
    expect(linkAway(batch, '/batches/b 1')).toBeNull();
    expect(linkAway(batch, '/batches/b%201/')).toBeNull();
  });

  it('is kept anywhere else, another batch included', () => {
    expect(linkAway(batch, '/batches')).toBe(batch);
    expect(linkAway(batch, '/batches/b2')).toBe(batch);
    expect(linkAway(batch, '/orders/ord_1')).toBe(batch);
    expect(linkAway(null, '/batches/b%201')).toBeNull();
  });
});
