import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The Node version package.json's "engines" promises must be one that every locked package accepts
 * (else `npm ci` warns EBADENGINE and the promise is not kept), and the one README.md names.
 */
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const minimum = semver.minVersion(pkg.engines.node)?.version ?? 'none';

/**
 * Electron's own tools, which declare Node >=22.12: the electron package and the downloader behind
 * `install-electron` (@electron/get, its unzipper); electron-builder's @electron/rebuild and its
 * node-abi. They run only in `npm start`, `npm run dev` and `npm run package`, on a desktop, and no
 * version of them that declares less fits Electron 42 and these machines (docs/decisions.md,
 * "Node version").
 */
const ELECTRON_TOOLS = [
  'electron',
  '@electron/get',
  '@electron-internal/extract-zip',
  '@electron/rebuild',
  'node-abi',
];

/** Every locked package whose "engines.node" refuses the minimum, by name. */
const refusing = Object.entries(lock.packages).flatMap(([path, { engines }]) => {
  const range = Array.isArray(engines) ? undefined : engines?.node;
  if (range === undefined || semver.satisfies(minimum, range)) return [];
  return [{ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), range }];
});

describe('the Node version package.json promises', () => {
  it('is accepted by every locked package but Electron’s own tools', () => {
    expect(minimum).toMatch(/^\d+\.\d+\.\d+$/);
    expect(refusing.filter(({ name }) => !ELECTRON_TOOLS.includes(name))).toEqual([]);
    // No excuse outlives its need: once one of them accepts the minimum, it leaves the list.
    expect(new Set(refusing.map(({ name }) => name))).toEqual(new Set(ELECTRON_TOOLS));
  });

  it('is the one README.md names', () => {
    const named = [...read('README.md').matchAll(/\bNode (\d+\.\d+(?:\.\d+)?)\+/g)];
    expect(named.length).toBeGreaterThan(0);
    for (const [, version] of named) expect(semver.coerce(version)?.version).toBe(minimum);
  });
});
