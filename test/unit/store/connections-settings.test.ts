import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CorruptRowError, StoreError, SYNC_KEYS } from '../../../src/main/store';
import { memoryStore, product, protocolRequest } from '../../support/store-fixtures';

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
    const store = memoryStore();
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
    const store = memoryStore();
    const a = store.connections.add(embedded);
    const b = store.connections.add(partner);
    store.connections.setActive(a.id);
    expect(store.connections.update(b.id, { label: 'Renamed' }).label).toBe('Renamed');
    expect(() => store.connections.remove(a.id)).toThrow(StoreError);
    expect(store.connections.remove(b.id)).toBe(true);
    expect(store.connections.get(b.id)).toBeNull();
  });

  it('switching connection empties the mirror, and refuses while changes are unsent unless told to discard', () => {
    const store = memoryStore();
    const a = store.connections.add(embedded);
    const b = store.connections.add(partner);
    store.connections.setActive(a.id);
    store.products.upsertMany([product(1001)]);
    store.syncState.set(SYNC_KEYS.ordersLastPull, 5);
    const draft = store.protocols.createDraft(protocolRequest());

    expect(() => store.connections.setActive(b.id)).toThrow(
      expect.objectContaining({ code: 'pending-work' }),
    );
    expect(store.connections.active()?.id).toBe(a.id);
    expect(store.protocols.get(draft.localId)).not.toBeNull();

    store.connections.setActive(b.id, { discardPendingWork: true });
    expect(store.connections.active()?.id).toBe(b.id);
    expect(store.connections.get(a.id)?.isActive).toBe(false);
    expect(store.protocols.count({ includeDeleted: true })).toBe(0);
    expect(store.jobs.counts({ kind: 'protocol' })).toMatchObject({ queued: 0 });
    expect(store.products.count()).toBe(0);
    expect(store.syncState.get(SYNC_KEYS.ordersLastPull, z.int())).toBeNull();
  });

  it('activating the active connection again keeps the mirror', () => {
    const store = memoryStore();
    const a = store.connections.add(embedded);
    store.connections.setActive(a.id);
    store.products.upsertMany([product(1001)]);
    store.connections.setActive(a.id);
    expect(store.products.count()).toBe(1);
  });
});

describe('SettingsRepo', () => {
  it('round-trips JSON values, parsed with the caller schema', () => {
    const store = memoryStore();
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
    const store = memoryStore();
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
