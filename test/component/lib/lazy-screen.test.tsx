import { describe, expect, it } from 'vitest';
import { lazyScreen } from '@renderer/lib/lazy-screen';

describe('lazyScreen', () => {
  it('loads once, and fetches again after a failed load', async () => {
    let calls = 0;
    const Screen = () => null;
    const screen = lazyScreen(async () => {
      calls += 1;
      if (calls === 1) throw new Error('net::ERR_CONNECTION_REFUSED');
      return { default: Screen };
    });
    await expect(screen.preload()).rejects.toThrow('ERR_CONNECTION_REFUSED');
    await expect(screen.preload()).resolves.toEqual({ default: Screen });
    await screen.preload();
    expect(calls).toBe(2);
  });
});
