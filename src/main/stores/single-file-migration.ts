import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { systemClock, type Clock } from '../clock';
import type { StoreKey } from '../db/cipher';
import { ConnectionsRepo } from '../connections/connections-repo';
import type { AppStore } from './app-store';
import { prepareCached } from '../db/rows';
import {
  LEGACY_STORE_FILE,
  connectionStoreFile,
  moveAside,
  moveStoreFiles,
} from '../db/store-files';
import { openConnectionStore } from './local-store-recovery';

export interface SingleFileMigration {
  /** The connection whose store the old file became, or null (no connection was active). */
  activeId: string | null;
  /** Where the old file went. */
  movedTo: string;
}

/**
 * The first start after the split into an app store and one store per connection: the single
 * order-desk.db of earlier versions is checked (recovered if damaged), its connections and
 * settings copied into the app store, then it is checkpointed and renamed to the active
 * connection's store. That rename is the commit point; nothing is deleted. Returns null when
 * there was nothing to migrate. The steps: docs/decisions.md, "Migrating the single store".
 */
export function migrateSingleFileStore(
  dataDir: string,
  app: AppStore,
  options: { key: StoreKey; clock?: Clock },
): SingleFileMigration | null {
  const clock = options.clock ?? systemClock;
  const legacy = join(dataDir, LEGACY_STORE_FILE);
  if (!existsSync(legacy)) return null;
  // Encrypted at start (startup.ts) like every store file of the folder.
  const store = openConnectionStore(legacy, { clock, now: () => clock.now(), key: options.key });
  let activeId: string | null;
  try {
    const connections = new ConnectionsRepo(store.db, clock).list();
    const settings = prepareCached(store.db, 'SELECT key, value FROM settings').all() as {
      key: string;
      value: string;
    }[];
    app.transaction(() => {
      for (const connection of connections) app.connections.adopt(connection);
      const insert = prepareCached(
        app.db,
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING',
      );
      // A recovery's record belongs to the connection store the file becomes, not to the app.
      for (const { key, value } of settings) if (key !== 'store.recovery') insert.run(key, value);
    });
    activeId = connections.find((c) => c.isActive)?.id ?? null;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    store.db.pragma('journal_mode = DELETE');
  } finally {
    store.close();
  }
  const target = activeId === null ? null : connectionStoreFile(dataDir, activeId);
  if (target === null || existsSync(target)) {
    return { activeId: null, movedTo: moveAside(legacy, 'single-file', clock.now()) };
  }
  mkdirSync(dirname(target), { recursive: true });
  moveStoreFiles(legacy, target);
  return { activeId, movedTo: target };
}
