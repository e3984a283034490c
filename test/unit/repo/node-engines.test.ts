import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoFile } from '@test/support/repo-files';

/**
 * The Node version package.json's "engines" promises must be one that every locked package accepts
 * (else `npm ci` warns EBADENGINE and the promise is not kept), and the one README.md names.
 */
const read = (file: string) => readFileSync(repoFile(file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};
const minimum = semver.minVersion(pkg.engines.node)?.version ?? 'none';

/** Every locked package whose "engines.node" refuses the minimum, by name. */
const refusing = Object.entries(lock.packages).flatMap(([path, { engines }]) => {
  const range = Array.isArray(engines) ? undefined : engines?.node;
  if (range === undefined || semver.satisfies(minimum, range)) return [];
  return [{ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), range }];
});

describe('the Node version package.json promises', () => {
  it('is accepted by every locked package, so npm ci warns EBADENGINE for none', () => {
    expect(minimum).toMatch(/^\d+\.\d+\.\d+$/);
    expect(refusing).toEqual([]);
  });

  it('is a supported Node: 24 LTS or later', () => {
    expect(semver.major(minimum)).toBeGreaterThanOrEqual(24);
  });

  it('is the one README.md names', () => {
    const named = [...read('README.md').matchAll(/\bNode (\d+\.\d+(?:\.\d+)?)\+/g)];
    expect(named.length).toBeGreaterThan(0);
    for (const [, version] of named) expect(semver.coerce(version)?.version).toBe(minimum);
  });
});
