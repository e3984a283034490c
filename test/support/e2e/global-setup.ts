import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assertKeychainAvailable } from './keychain-probe';
import {
  BRIDGE_FILE,
  BUILT_BRIDGE_FILE,
  BUILT_RENDERER_DIR,
  PREBUILT_ENV,
  RENDERER_DIR,
  REPO_ROOT,
  SCREENS_DIR,
  SNAPSHOT_DIR,
} from './paths';

function npmScripts(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return pkg.scripts ?? {};
}

function run(command: string, args: string[]): void {
  process.stdout.write(`e2e setup: ${command} ${args.join(' ')}\n`);
  execFileSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit' });
}

/** Builds the renderer and the browser bridge (the project's npm scripts). */
function build(): void {
  const scripts = npmScripts();
  if (scripts['build:renderer']) run('npm', ['run', '--silent', 'build:renderer']);
  else run('npx', ['electron-vite', 'build']);
  if (!scripts['build:browser'])
    throw new Error(
      'e2e setup: package.json has no "build:browser" script, so the browser bridge (out/browser/bridge.js) cannot be built.',
    );
  run('npm', ['run', '--silent', 'build:browser']);
}

/** The built files index.html loads (scripts, modulepreloads, stylesheets). */
function referencedAssets(indexHtml: string): string[] {
  return [...indexHtml.matchAll(/\b(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1]!);
}

/** Copies the build to the snapshot the tests serve, checking that it is complete. */
function snapshot(): void {
  const index = join(BUILT_RENDERER_DIR, 'index.html');
  const missing = (file: string, what: string) =>
    new Error(
      `e2e setup: ${what} is missing (${file}). Build with npm run build:renderer && npm run build:browser.`,
    );
  if (!existsSync(index)) throw missing(index, 'the built renderer');
  if (!existsSync(BUILT_BRIDGE_FILE)) throw missing(BUILT_BRIDGE_FILE, 'the built browser bridge');
  rmSync(SNAPSHOT_DIR, { recursive: true, force: true });
  cpSync(BUILT_RENDERER_DIR, RENDERER_DIR, { recursive: true });
  mkdirSync(dirname(BRIDGE_FILE), { recursive: true });
  cpSync(BUILT_BRIDGE_FILE, BRIDGE_FILE);
  for (const asset of referencedAssets(readFileSync(join(RENDERER_DIR, 'index.html'), 'utf8')))
    if (!existsSync(join(RENDERER_DIR, asset)))
      throw missing(join(RENDERER_DIR, asset), `${asset} (named by index.html)`);
}

export default async function globalSetup(): Promise<void> {
  if (process.env[PREBUILT_ENV] !== '1') build();
  snapshot();
  await assertKeychainAvailable();
  mkdirSync(SCREENS_DIR, { recursive: true });
}
