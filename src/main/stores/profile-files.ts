import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { APP_STORE_FILE, CONNECTIONS_DIR, LEGACY_STORE_FILE } from '../db/store-files';

/** The embedded sandbox's store, unless the app is told another (`:memory:` in tests). */
export const embeddedStoreFile = (dataDir: string, given?: string): string =>
  given ?? join(dataDir, 'sandbox.db');

/** A connection's store file name: its id (letters, digits, "-", "_") and `.db`, nothing else. */
const CONNECTION_STORE = /^[A-Za-z0-9_-]+\.db$/;

/**
 * The store files of a data folder that the app opens, whether or not they exist: the app
 * store, the single file of versions before the split, every connection's store (not the files
 * kept aside, whose names carry a reason and a time) and the embedded sandbox's.
 */
export function profileStoreFiles(dataDir: string, embeddedDb?: string): string[] {
  let connections: string[] = [];
  try {
    connections = readdirSync(join(dataDir, CONNECTIONS_DIR))
      .filter((name) => CONNECTION_STORE.test(name))
      .sort()
      .map((name) => join(dataDir, CONNECTIONS_DIR, name));
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  const embedded = embeddedStoreFile(dataDir, embeddedDb);
  return [
    join(dataDir, APP_STORE_FILE),
    join(dataDir, LEGACY_STORE_FILE),
    ...connections,
    ...(embedded === ':memory:' ? [] : [embedded]),
  ];
}
