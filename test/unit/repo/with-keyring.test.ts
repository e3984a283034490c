import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDataDir } from '@main/browser-host/data-dir';
import { REPO_ROOT, repoFile } from '@test/support/repo-files';

/**
 * scripts/with-keyring.sh: a throw-away keyring for tests, a kept one (--persist) for running the
 * app, so that the browser host's data and saved secrets survive a restart (issue 12 item 8).
 */
const SCRIPT = repoFile('scripts', 'with-keyring.sh');
const KEYTAR = `
const keytar = require('keytar');
const [op, value] = process.argv.slice(1);
(op === 'set' ? keytar.setPassword('order-desk-test', 'acct', value) : keytar.getPassword('order-desk-test', 'acct'))
  .then((v) => console.log(JSON.stringify({ home: process.env.HOME, user: process.env.ORDER_DESK_USER_HOME, v: v ?? null })));
`;

/** Runs node with keytar under a fresh D-Bus session and the script; answers what it printed. */
function underKeyring(scriptArgs: string[], op: 'set' | 'get', value = '') {
  const out = execFileSync(
    'dbus-run-session',
    ['--', 'bash', SCRIPT, ...scriptArgs, process.execPath, '-e', KEYTAR, op, value],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, HOME: '/home/someone', ORDER_DESK_USER_HOME: '' },
    },
  ).toString();
  const line = out.trim().split('\n').at(-1)!;
  return JSON.parse(line) as { home: string; user: string; v: string | null };
}

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('scripts/with-keyring.sh', () => {
  it('--persist keeps the keyring and its secrets between runs, and passes the user HOME on', () => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-persist-'));
    const keyring = join(dir, 'keyring');
    const first = underKeyring(['--persist', keyring], 'set', 's3cret');
    expect(first.home).toBe(join(keyring, 'home'));
    expect(first.user).toBe('/home/someone');
    expect(existsSync(join(keyring, 'home'))).toBe(true);
    expect(statSync(join(keyring, 'password')).mode & 0o077).toBe(0);
    const password = readFileSync(join(keyring, 'password'), 'utf8');
    const second = underKeyring(['--persist', keyring], 'get');
    expect(second.v).toBe('s3cret');
    expect(readFileSync(join(keyring, 'password'), 'utf8')).toBe(password);
  });

  it('without --persist, the keyring is thrown away with its HOME (tests)', () => {
    const run = underKeyring([], 'get');
    expect(run.v).toBeNull();
    expect(run.user).toBe('/home/someone');
    expect(run.home).not.toBe('/home/someone');
    expect(existsSync(run.home)).toBe(false);
  });

  it("the browser host's default data directory is in the user's HOME, not the keyring's", () => {
    expect(defaultDataDir({ ORDER_DESK_USER_HOME: '/home/someone' })).toBe(
      '/home/someone/.config/order-desk-browser',
    );
    expect(defaultDataDir({})).toMatch(/\.config\/order-desk-browser$/);
  });
});
