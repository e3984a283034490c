import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoFile } from '@test/support/repo-files';

/**
 * better-sqlite3-multiple-ciphers and keytar are N-API modules: one binary serves Node and
 * Electron alike, so no npm script rebuilds them between runtimes (docs/decisions.md, "One
 * native binary for both runtimes"). What `npm ci` left is what loads, under this Node.
 */
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(repoFile('package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const dirOf = (name: string) => dirname(require.resolve(`${name}/package.json`));

describe('the native modules', () => {
  it('load under this Node as npm ci installed them', async () => {
    const { default: Database } = await import('better-sqlite3-multiple-ciphers');
    const db = new Database(':memory:');
    try {
      expect(db.prepare("SELECT sqlite_version() AS v, 'ok' AS ok").get()).toMatchObject({
        ok: 'ok',
      });
      // The encrypting build, not plain SQLite.
      expect(db.pragma('cipher', { simple: true })).toBeTypeOf('string');
    } finally {
      db.close();
    }
    const keytar = (await import('keytar')) as { default?: { getPassword?: unknown } };
    expect(typeof keytar.default?.getPassword).toBe('function');
  });

  it('are the prebuilt N-API binary for the cipher build (nothing compiled) and N-API keytar', () => {
    const cipher = dirOf('better-sqlite3-multiple-ciphers');
    expect(existsSync(join(cipher, 'prebuilds', `${process.platform}-${process.arch}.node`))).toBe(
      true,
    );
    expect(existsSync(join(cipher, 'build'))).toBe(false);
    // keytar's binding asks for N-API (node-addon-api), so Electron loads the same file.
    expect(readFileSync(join(dirOf('keytar'), 'binding.gyp'), 'utf8')).toMatch(/NAPI_VERSION/);
  });

  it('are never rebuilt by an npm script, and their install scripts are named', () => {
    for (const [name, command] of Object.entries(pkg.scripts)) {
      expect(command, name).not.toMatch(/native-abi|install-app-deps|npm rebuild|electron-rebuild/);
    }
    // keytar compiles where its prebuilt download fails; the cipher build ships its binaries.
    expect(pkg.allowScripts).toMatchObject({
      keytar: true,
      'better-sqlite3-multiple-ciphers': false,
    });
  });
});
