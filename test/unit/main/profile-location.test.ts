import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideProfileLocation } from '@main/profile-location';

const cwd = resolve('/home/dev/order-desk');

describe('decideProfileLocation', () => {
  it("keeps Electron's default profile when ORDER_DESK_USER_DATA is not set", () => {
    for (const env of [{}, { ORDER_DESK_USER_DATA: '' }])
      for (const isPackaged of [true, false])
        expect(decideProfileLocation({ isPackaged, env, cwd })).toEqual({
          dataDir: null,
          logsDir: null,
          ignored: null,
        });
  });

  it('honours ORDER_DESK_USER_DATA in an unpackaged app, logs in its logs folder', () => {
    const dir = resolve('/tmp/order-desk-electron-abc');
    expect(
      decideProfileLocation({ isPackaged: false, env: { ORDER_DESK_USER_DATA: dir }, cwd }),
    ).toEqual({ dataDir: dir, logsDir: join(dir, 'logs'), ignored: null });
  });

  it('takes a relative directory from the working directory', () => {
    const decided = decideProfileLocation({
      isPackaged: false,
      env: { ORDER_DESK_USER_DATA: 'profiles/second' },
      cwd,
    });
    expect(decided.dataDir).toBe(join(cwd, 'profiles', 'second'));
  });

  it('ignores ORDER_DESK_USER_DATA in a packaged app, and says so', () => {
    for (const dir of [resolve('/tmp/prepared-profile'), 'relative', '../../etc']) {
      const decided = decideProfileLocation({
        isPackaged: true,
        env: { ORDER_DESK_USER_DATA: dir },
        cwd,
      });
      expect(decided.dataDir, dir).toBeNull();
      expect(decided.logsDir, dir).toBeNull();
      expect(decided.ignored, dir).toMatch(/ORDER_DESK_USER_DATA is ignored in a packaged app/);
    }
  });
});
