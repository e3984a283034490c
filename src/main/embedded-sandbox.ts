import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../sandbox';

/**
 * The embedded default: the sandbox service in-process, on a free loopback port, keeping its
 * data in the app's data directory so that a new user can work at once without partner
 * credentials. The only place in main that imports the sandbox.
 */
export function startEmbeddedSandbox(dataDir: string, log: (line: string) => void): Promise<RunningSandbox> {
  return startSandbox({ port: 0, host: '127.0.0.1', db: join(dataDir, 'sandbox.db') }, { log });
}
