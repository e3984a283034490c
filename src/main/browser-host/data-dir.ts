import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The browser host's default data directory: ~/.config/order-desk-browser of the user. Under
 * scripts/with-keyring.sh HOME is the keyring's own (thrown away after tests); the script passes
 * the user's HOME as ORDER_DESK_USER_HOME, so the app's data stays where it was between runs.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.ORDER_DESK_USER_HOME?.trim() || homedir();
  return join(home, '.config', 'order-desk-browser');
}
