import { join } from 'node:path';
import { REPO_ROOT } from '../repo-files';

/** Where the e2e suite finds the built app and writes what it keeps. */
export { REPO_ROOT };

/** What `npm run build:renderer` and `npm run build:browser` write. */
export const BUILT_RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer');
export const BUILT_BRIDGE_FILE = join(REPO_ROOT, 'out', 'browser', 'bridge.js');

/**
 * The copy of the build the tests serve, taken once by the global setup: a rebuild of out/
 * while the suite runs (another terminal, an editor's watcher) cannot pull files from under it.
 */
export const SNAPSHOT_DIR = join(REPO_ROOT, 'test-results', 'e2e-app');
export const RENDERER_DIR = join(SNAPSHOT_DIR, 'renderer');
export const BRIDGE_FILE = join(SNAPSHOT_DIR, 'browser', 'bridge.js');

export const SCREENS_DIR = join(REPO_ROOT, 'test-results', 'screens');

/** Set by `npm run test:e2e` after it has built: the global setup then builds nothing. */
export const PREBUILT_ENV = 'ORDER_DESK_E2E_PREBUILT';
