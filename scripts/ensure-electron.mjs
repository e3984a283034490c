#!/usr/bin/env node
// Makes sure the Electron binary is installed, first thing in `npm start` and `npm run dev`.
//
//   node scripts/ensure-electron.mjs   exit 0: Electron is there (downloaded now if it was not)
//                                      exit 1: it is not and could not be had; says what to do
//
// A machine that cannot get Electron hears so at once, with what to run instead. The native
// modules need nothing here: they are N-API, so the binaries `npm ci` installed load in Electron
// as they do in Node.
//
// Since Electron 42 `npm install` no longer downloads the binary: the electron package's own
// installer (its install.js, the `install-electron` bin) does, and writes path.txt, which is all
// electron-vite reads to find the binary. Installed is judged as that installer judges it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));
const { version } = require('electron/package.json');

/** Whether the binary of this electron package's version is there, as install.js judges it. */
function installed() {
  try {
    const distVersion = readFileSync(join(electronDir, 'dist', 'version'), 'utf8');
    if (distVersion.trim().replace(/^v/, '') !== version) return false;
    return existsSync(
      join(electronDir, 'dist', readFileSync(join(electronDir, 'path.txt'), 'utf8')),
    );
  } catch {
    return false;
  }
}

/** Runs Electron's installer; answers why it failed, or null when it succeeded. */
function download() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it was not downloaded';
  }
  console.log(`Downloading Electron ${version}, once (this can take a few minutes) ...`);
  // stderr is kept, not shown: on failure the installer prints a bare stack trace, whose first
  // line is the cause.
  const run = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status === 0) return null;
  const cause = (run.stderr ?? '').split('\n').find((line) => line.trim() !== '');
  return `the download failed${cause ? `: ${cause.trim()}` : ''}`;
}

/** Why Electron cannot be started, or null when it can. */
function missing() {
  // electron-vite's own override: with it set, path.txt is never read.
  const override = process.env.ELECTRON_EXEC_PATH;
  if (override)
    return existsSync(override) ? null : `ELECTRON_EXEC_PATH names no file: ${override}`;
  if (installed()) return null;
  return download() ?? (installed() ? null : 'its installer left no binary');
}

const failure = missing();
if (failure === null) process.exit(0);

console.error(`
Order Desk cannot start here: the Electron ${version} binary is not installed (${failure}).
Nothing was changed.

Without Electron, run the same app in your browser instead (README.md, "Without Electron: the
browser host"):

    npm run browser

To install Electron, on a machine that can reach GitHub (or with ELECTRON_MIRROR set):

    npx install-electron && npm start
`);
process.exit(1);
