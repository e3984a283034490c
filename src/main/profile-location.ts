import { join, resolve } from 'node:path';

/** Where the app keeps its profile when it is not Electron's default userData directory. */
export interface ProfileDecision {
  /** The data directory to use (logs go in its `logs` folder), or null for Electron's default. */
  dataDir: string | null;
  logsDir: string | null;
  /** Why an ORDER_DESK_USER_DATA that was set is not used (for the log), else null. */
  ignored: string | null;
}

const DEFAULT: ProfileDecision = { dataDir: null, logsDir: null, ignored: null };

/**
 * ORDER_DESK_USER_DATA points the app at another profile (the database, the logs, the
 * single-instance lock): what the launch tests and a developer's second profile use. It is
 * honoured only when the app is not packaged: an installed app launched with it set (by anyone
 * who can set its environment, a shortcut or a login script) would otherwise read and write a
 * database and logs wherever it says, take a second instance lock beside the real one, and
 * could be handed a prepared profile. A relative path is taken from the working directory.
 */
export function decideProfileLocation(input: {
  isPackaged: boolean;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}): ProfileDecision {
  const requested = input.env.ORDER_DESK_USER_DATA;
  if (requested === undefined || requested === '') return DEFAULT;
  if (input.isPackaged)
    return { ...DEFAULT, ignored: 'ORDER_DESK_USER_DATA is ignored in a packaged app' };
  const dataDir = resolve(input.cwd, requested);
  return { dataDir, logsDir: join(dataDir, 'logs'), ignored: null };
}
