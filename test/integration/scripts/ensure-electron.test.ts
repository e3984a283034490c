import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@test/support/repo-files';

/**
 * `npm start` and `npm run dev` run in a miniature checkout: the real script and package.json
 * commands, a stand-in electron package whose installer fails or succeeds, and a stand-in on PATH
 * for what would start Electron (electron-vite), each logging that it ran. Nothing here downloads
 * anything.
 */
const root = REPO_ROOT;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  scripts: { start: string; dev: string };
};
const VERSION = '45.0.0';

const FAILING_INSTALLER = `
require('fs').appendFileSync(process.env.LOG, 'install.js\\n');
console.error('TypeError: fetch failed\\n    at FetchDownloader.download (index.js:1:1)');
process.exit(1);
`;
const WORKING_INSTALLER = `
const fs = require('fs');
const path = require('path');
fs.appendFileSync(process.env.LOG, 'install.js\\n');
fs.mkdirSync(path.join(__dirname, 'dist'));
fs.writeFileSync(path.join(__dirname, 'dist', 'version'), 'v${VERSION}');
fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), '');
fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
`;

const checkouts: string[] = [];
afterEach(() => {
  for (const dir of checkouts.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function checkout(installer: string) {
  const dir = mkdtempSync(join(tmpdir(), 'order-desk-start-'));
  checkouts.push(dir);
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(
    join(root, 'scripts', 'ensure-electron.mjs'),
    join(dir, 'scripts', 'ensure-electron.mjs'),
  );
  const electron = join(dir, 'node_modules', 'electron');
  mkdirSync(electron, { recursive: true });
  writeFileSync(
    join(electron, 'package.json'),
    JSON.stringify({ name: 'electron', version: VERSION }),
  );
  writeFileSync(join(electron, 'install.js'), installer);
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const tools = {
    'electron-vite': 'echo "electron-vite $*" >> "$LOG"',
    // As electron's own bin: its installer.
    'install-electron': `exec node "${join(electron, 'install.js')}"`,
  };
  for (const [tool, body] of Object.entries(tools)) {
    writeFileSync(join(bin, tool), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, tool), 0o755);
  }
  return dir;
}

function run(dir: string, script: 'start' | 'dev', env: Record<string, string> = {}) {
  const log = join(dir, 'ran.log');
  writeFileSync(log, '');
  const {
    ELECTRON_SKIP_BINARY_DOWNLOAD: _skip,
    ELECTRON_EXEC_PATH: _exec,
    ...inherited
  } = process.env;
  const result = spawnSync('sh', ['-c', pkg.scripts[script]], {
    cwd: dir,
    encoding: 'utf8',
    env: {
      ...inherited,
      PATH: [join(dir, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      LOG: log,
      ...env,
    },
  });
  const ran = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { status: result.status, stderr: result.stderr, ran };
}

describe('npm start and npm run dev', () => {
  for (const script of ['start', 'dev'] as const) {
    it(`${script}: stop at once, saying what to do, when Electron cannot be downloaded`, () => {
      const dir = checkout(FAILING_INSTALLER);

      const { status, stderr, ran } = run(dir, script);

      expect(status).toBe(1);
      expect(ran).toEqual(['install.js']);
      expect(stderr).toContain('npm run browser');
      expect(stderr).toContain('the download failed: TypeError: fetch failed');
      expect(stderr).not.toContain('FetchDownloader');
    });
  }

  it('do not even try to download when ELECTRON_SKIP_BINARY_DOWNLOAD is set', () => {
    const dir = checkout(WORKING_INSTALLER);

    const { status, stderr, ran } = run(dir, 'start', { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });

    expect(status).toBe(1);
    expect(ran).toEqual([]);
    expect(stderr).toContain('npm run browser');
  });

  it('download Electron when it can be, then start it (the native modules need no rebuild)', () => {
    const dir = checkout(WORKING_INSTALLER);

    const { status, ran } = run(dir, 'start');

    expect(status).toBe(0);
    expect(ran).toEqual(['install.js', 'electron-vite preview']);
    // Installed now: the next start does not download again.
    expect(run(dir, 'start').ran).toEqual(['electron-vite preview']);
  });
});
