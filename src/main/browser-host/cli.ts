/**
 * `npm run browser`: the app's services in plain Node, serving the built renderer to a browser
 * on 127.0.0.1 (for trying the app where Electron cannot run, and for Playwright).
 *
 *   npm run browser -- [--port N] [--data-dir DIR] [--memory-keychain]
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  KeytarCredentialStore,
  MemoryCredentialStore,
  type CredentialStore,
} from '../connections/keychain';
import { createFileLogger, Redactor } from '../logging';
import { defaultDataDir } from './data-dir';
import { startBrowserHost } from './host';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const USAGE = `Usage: npm run browser -- [--port N] [--data-dir DIR] [--memory-keychain]
  --port N            port on 127.0.0.1 (default 0: a free port)
  --data-dir DIR      the app's data (default ~/.config/order-desk-browser, in the user's home
                      even under scripts/with-keyring.sh)
  --memory-keychain   keep secrets and the data's key in memory for this run instead of the
                      system keychain (the next run cannot open this run's data)`;

const Port = z.coerce
  .number({ error: 'a whole number' })
  .int('a whole number')
  .min(0, 'between 0 and 65535')
  .max(65535, 'between 0 and 65535');

function fail(message: string): never {
  console.error(`order-desk browser host: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function parseCli() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'memory-keychain': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = Port.safeParse(values.port === undefined ? 0 : values.port.trim() || 'x');
  if (!port.success) fail(`--port must be ${port.error.issues[0]?.message ?? 'a port number'}`);
  return {
    port: port.data,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    memoryKeychain: values['memory-keychain'],
  };
}

/** The system keychain, checked once now, so that a missing Secret Service is said up front. */
async function keychain(memory: boolean): Promise<CredentialStore> {
  if (memory) {
    console.log(
      "Secrets and the key to this run's data are kept in memory for this run only (--memory-keychain).",
    );
    return new MemoryCredentialStore();
  }
  const store = new KeytarCredentialStore();
  try {
    await store.get('order-desk:probe');
    return store;
  } catch (error) {
    console.error(
      `order-desk browser host: ${error instanceof Error ? error.message : String(error)}\n` +
        'Start a Secret Service (e.g. `dbus-run-session -- bash scripts/with-keyring.sh --persist ~/.local/share/order-desk-keyring npm run browser`), ' +
        'or run with --memory-keychain to keep secrets and the data key in memory for this run.',
    );
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const cli = parseCli();
  const credentials = await keychain(cli.memoryKeychain);
  const redactor = new Redactor();
  const log = createFileLogger({ dir: join(cli.dataDir, 'logs'), redactor });
  const version = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))).version;
  const host = await startBrowserHost({
    port: cli.port,
    rendererDir: join(ROOT, 'out/renderer'),
    bridgeFile: join(ROOT, 'out/browser/bridge.js'),
    dataDir: cli.dataDir,
    credentials,
    log,
    redactor,
    version,
  });
  console.log(
    `Order Desk is running (data in ${cli.dataDir}, log in ${join(cli.dataDir, 'logs')}).\n` +
      `Open this address in a browser (it carries this launch's access token):\n\n  ${host.url}\n\n` +
      'Press Ctrl+C to stop.',
  );
  if (host.startup.state.phase === 'encrypting')
    console.log('Encrypting the data an earlier version left unencrypted; the page shows how far.');
  // The page asks what to do; the console says why too.
  void host.startup.settled().then((view) => {
    if (view.phase === 'locked' || view.phase === 'failed')
      console.log(`Order Desk is waiting for you in the page: ${view.message}`);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    host
      .close()
      .then(() => log.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('order-desk browser host: could not stop cleanly', error);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(
    `order-desk browser host: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
