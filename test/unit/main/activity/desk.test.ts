import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Desk, StaffRefused } from '@main/activity/desk';
import { openAppStore, type AppStore } from '@main/stores';
import { TEST_KEY } from '@test/support/store-key';

const dirs: string[] = [];
const stores: AppStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function appStore(dir = mkdtempSync(join(tmpdir(), 'order-desk-desk-'))) {
  if (!dirs.includes(dir)) dirs.push(dir);
  const store = openAppStore(dir, { key: TEST_KEY });
  stores.push(store);
  return { dir, store };
}

describe('the desk', () => {
  it('keeps one random id per data folder, made at the first start', () => {
    const { dir, store } = appStore();
    const id = new Desk({ settings: store.settings }).id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Desk({ settings: store.settings }).id).toBe(id);
    store.close();
    stores.splice(0);
    expect(new Desk({ settings: appStore(dir).store.settings }).id).toBe(id);
    expect(new Desk({ settings: appStore().store.settings }).id).not.toBe(id);
  });

  it('names the computer and the OS account, and falls back when the OS cannot say', () => {
    const { store } = appStore();
    const named = new Desk({
      settings: store.settings,
      hostname: () => 'front-desk\n',
      osUser: () => 'reception',
    });
    expect(named.actor()).toMatchObject({ deskName: 'front-desk', osUser: 'reception' });
    const unknown = new Desk({
      settings: store.settings,
      hostname: () => {
        throw new Error('no hostname');
      },
      osUser: () => '',
    });
    expect(unknown.actor()).toMatchObject({ deskName: 'unknown', osUser: 'unknown', staff: null });
  });

  it('adds, renames and removes people; the one at the desk follows a rename and goes with a removal', () => {
    const desk = new Desk({ settings: appStore().store.settings });
    desk.add('Dana');
    desk.add('Lee');
    expect(() => desk.add(' dana ')).toThrow(StaffRefused);
    expect(desk.choose('Dana')).toEqual({ staff: ['Dana', 'Lee'], atDesk: 'Dana' });
    expect(desk.actor().staff).toBe('Dana');
    expect(desk.rename('Dana', 'Dana R.')).toEqual({
      staff: ['Dana R.', 'Lee'],
      atDesk: 'Dana R.',
    });
    expect(() => desk.rename('Lee', 'dana r.')).toThrow(/already in the list/);
    expect(() => desk.choose('Nobody')).toThrow(/not in the list/);
    expect(desk.remove('Dana R.')).toEqual({ staff: ['Lee'], atDesk: null });
    expect(desk.actor().staff).toBeNull();
  });
});
