import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CorruptRowError, StoreError, SYNC_KEYS } from '@main/db';
import { DataDirInUseError, openAppStore, type AppStore } from '@main/stores';
import { manualClock, memoryStore } from '@test/support/store-fixtures';
import { TEST_KEY } from '@test/support/store-key';

const dirs: string[] = [];
const stores: AppStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** An app store in a fresh data folder, with a clock the test moves. */
function appStore() {
  const dir = mkdtempSync(join(tmpdir(), 'app-store-'));
  dirs.push(dir);
  const clock = manualClock();
  const store = openAppStore(dir, { key: TEST_KEY, clock });
  stores.push(store);
  return Object.assign(store, { clock, dir });
}

const embedded = {
  kind: 'embedded' as const,
  label: 'On this computer',
  baseUrl: 'http://127.0.0.1:4010',
  authUrl: 'http://127.0.0.1:4010',
  clientId: 'order-desk-local',
};
const partner = {
  kind: 'partner-sandbox' as const,
  label: 'Partner sandbox',
  baseUrl: 'https://sandbox.example.com/v1/',
  authUrl: 'https://auth.example.com/oauth2/token',
  clientId: 'clinic-7',
};

describe('ConnectionsRepo', () => {
  it('adds connections normalised by the shared schema, inactive, in creation order', () => {
    const store = appStore();
    const a = store.connections.add(embedded);
    store.clock.advance(1);
    const b = store.connections.add({ ...partner, id: 'partner' });
    expect(a.baseUrl).toBe('http://127.0.0.1:4010/v1');
    expect(b).toMatchObject({
      id: 'partner',
      baseUrl: 'https://sandbox.example.com/v1',
      authUrl: 'https://auth.example.com',
      isActive: false,
    });
    expect(store.connections.list().map((c) => c.id)).toEqual([a.id, 'partner']);
    expect(store.connections.active()).toBeNull();
    expect(() => store.connections.add({ ...partner, baseUrl: 'http://example.com' })).toThrow(
      /https/,
    );
  });

  it('updates a connection and refuses to remove the active one', () => {
    const store = appStore();
    const a = store.connections.add(embedded);
    const b = store.connections.add(partner);
    store.connections.setActive(a.id);
    expect(store.connections.update(b.id, { label: 'Renamed' }).label).toBe('Renamed');
    expect(() => store.connections.remove(a.id)).toThrow(StoreError);
    expect(store.connections.remove(b.id)).toBe(true);
    expect(store.connections.get(b.id)).toBeNull();
  });

  it('switching moves only the active flag: each connection keeps its own store', () => {
    const store = appStore();
    const a = store.connections.add(embedded);
    const b = store.connections.add(partner);
    store.connections.setActive(a.id);
    store.connections.setActive(b.id);
    expect(store.connections.active()?.id).toBe(b.id);
    expect(store.connections.get(a.id)?.isActive).toBe(false);
    expect(store.connections.setActive(b.id).isActive).toBe(true);
    expect(store.connections.list().filter((c) => c.isActive)).toHaveLength(1);
  });

  it('adopts a connection saved by an earlier version once, keeping its id, time and flag', () => {
    const store = appStore();
    const old = { ...partner, id: 'conn_old', createdAt: 5, isActive: true, label: 'Old' };
    store.connections.adopt({ ...old, baseUrl: 'https://sandbox.example.com/v1' });
    store.connections.adopt({ ...old, label: 'Adopted again' });
    expect(store.connections.list()).toEqual([
      expect.objectContaining({ id: 'conn_old', label: 'Old', createdAt: 5, isActive: true }),
    ]);
  });
});

describe('the app store', () => {
  it('holds its data folder: a second opening is refused with a message naming the folder', () => {
    const store = appStore();
    let error: unknown;
    try {
      openAppStore(store.dir, { key: TEST_KEY, lockTimeoutMs: 50 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as Error).message).toContain(store.dir);
    expect((error as Error).message).toMatch(/already running/);
    store.close();
    stores.splice(stores.indexOf(store), 1);
    const again = openAppStore(store.dir, { key: TEST_KEY });
    again.close();
  });

  it('keeps notices until they are dismissed; the same notice twice is one', () => {
    const store = appStore();
    const notice = {
      id: 'n-1',
      kind: 'store-recovered' as const,
      at: '2025-03-01T10:00:00.000Z',
      connectionLabel: 'Local sandbox',
      cause: 'damaged' as const,
      keptAt: '/data/connections/embedded.damaged-20250301-100000.db',
      storeFile: '/data/connections/embedded.db',
      recovered: { protocols: 3, unsentChanges: 1, unfinishedBatches: 0, orders: 2 },
      unreadable: 4,
    };
    store.notices.add(notice);
    store.notices.add({ ...notice, unreadable: 9 });
    expect(store.notices.shown()).toEqual([notice]);
    expect(store.notices.dismiss('n-1')).toBe(true);
    expect(store.notices.dismiss('n-1')).toBe(false);
    expect(store.notices.shown()).toEqual([]);
  });
});

describe('SettingsRepo', () => {
  it('round-trips JSON values, parsed with the caller schema', () => {
    const store = appStore();
    const Theme = z.enum(['light', 'dark']);
    expect(store.settings.get('ui.theme', Theme, 'light')).toBe('light');
    store.settings.set('ui.theme', 'dark');
    expect(store.settings.get('ui.theme', Theme, 'light')).toBe('dark');
    store.settings.set('poller', { budget: 60 });
    expect(store.settings.get('poller', z.object({ budget: z.int() }), { budget: 1 })).toEqual({
      budget: 60,
    });
    expect(store.settings.delete('ui.theme')).toBe(true);
    expect(store.settings.get('ui.theme', Theme, 'light')).toBe('light');
  });

  it('reads a value that no longer matches its schema, or is not JSON, as the fallback', () => {
    const store = appStore();
    store.settings.set('ui.theme', 'sepia');
    expect(store.settings.get('ui.theme', z.enum(['light', 'dark']), 'light')).toBe('light');
    store.db.prepare("INSERT INTO settings (key, value) VALUES ('broken', '{not json')").run();
    expect(store.settings.get('broken', z.string(), 'x')).toBe('x');
  });
});

describe('SyncStateRepo', () => {
  it('round-trips cursors and reports a corrupt one', () => {
    const store = memoryStore();
    store.syncState.set(SYNC_KEYS.productsUpdatedAfter, '2025-01-01T00:00:00Z');
    expect(store.syncState.get(SYNC_KEYS.productsUpdatedAfter, z.string())).toBe(
      '2025-01-01T00:00:00Z',
    );
    store.db
      .prepare("UPDATE sync_state SET value = '12' WHERE key = ?")
      .run(SYNC_KEYS.productsUpdatedAfter);
    expect(() => store.syncState.get(SYNC_KEYS.productsUpdatedAfter, z.string())).toThrow(
      CorruptRowError,
    );
    expect(() => store.syncState.get(SYNC_KEYS.productsUpdatedAfter, z.string())).toThrow(
      /sync_state \(key=products.updatedAfter\)/,
    );
    expect(store.syncState.delete(SYNC_KEYS.productsUpdatedAfter)).toBe(true);
  });
});
