import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import type { Configuration, TargetConfiguration } from 'electron-builder';
import { loadBuilderConfig, packageJson, ROOT } from './builder-config';

/**
 * electron-builder.yml, checked without building (a build downloads Electron): the schema
 * electron-builder validates with, the installers per OS, the app's identity, what goes into the
 * package and what stays out of the archive. The icons and the fuses have their own suites.
 */
const config = loadBuilderConfig();
const require = createRequire(import.meta.url);
// electron-builder's own validation, the first thing `electron-builder` runs (its JSON schema).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: Configuration, debugLogger: { isEnabled: boolean }): Promise<void>;
};
const validate = (candidate: unknown) =>
  validateConfiguration(structuredClone(candidate) as Configuration, { isEnabled: false });

type Target = string | TargetConfiguration;
/** A platform's targets as { name: archs } (an empty list: the host's arch). */
function targetsOf(target: Target | Target[] | null | undefined): Record<string, string[]> {
  const list = target == null ? [] : Array.isArray(target) ? target : [target];
  return Object.fromEntries(
    list.map((it) =>
      typeof it === 'string'
        ? [it, []]
        : [it.target, it.arch == null ? [] : Array.isArray(it.arch) ? it.arch : [it.arch]],
    ),
  );
}

/**
 * electron-builder's file matching (app-builder-lib's minimatchAll over its Minimatch patterns,
 * dot files included): patterns in order, a `!` pattern excludes what an earlier one included.
 */
function matches(patterns: string[], file: string): boolean {
  let match = false;
  for (const pattern of patterns.map((it) => new Minimatch(it, { dot: true }))) {
    if (match !== pattern.negate) continue;
    match = pattern.match(file);
  }
  return match;
}
const filePatterns = (config.files as string[] | undefined) ?? [];
const unpackPatterns = (config.asarUnpack as string[] | undefined) ?? [];

describe('electron-builder.yml', () => {
  it('is valid for electron-builder: every key known, every value of the right type', async () => {
    await expect(validate(config)).resolves.toBeUndefined();
    // The check is live: a misspelt key, top-level or nested, is refused.
    await expect(validate({ ...config, asarUnpak: ['x'] })).rejects.toThrow(/asarUnpak/);
    await expect(validate({ ...config, linux: { ...config.linux, icn: 'x' } })).rejects.toThrow(
      /linux/,
    );
  });

  it('names the app: app id, and the product name package.json also gives', () => {
    expect(config.appId).toBe('com.orderdesk.app');
    expect(config.productName).toBe('Order Desk');
    expect(packageJson.productName).toBe(config.productName);
  });

  it('builds an AppImage and a deb on Linux, an NSIS installer on Windows, a dmg on macOS', () => {
    expect(targetsOf(config.linux?.target)).toEqual({ AppImage: [], deb: [] });
    expect(targetsOf(config.win?.target)).toEqual({ nsis: [] });
    // Both Intel and Apple Silicon Macs: the arm64 build is the one whose fuses need re-signing.
    expect(targetsOf(config.mac?.target)).toEqual({ dmg: ['x64', 'arm64'] });
    // A deb without a maintainer is refused by dpkg tooling.
    expect(config.linux?.maintainer).toMatch(/^.+ <.+@.+>$/);
  });

  it('points each OS at its generated icon, from the build resources', () => {
    expect(config.directories?.buildResources).toBe('resources');
    expect(config.mac?.icon).toBe('resources/icon.icns');
    expect(config.win?.icon).toBe('resources/icon.ico');
    expect(config.linux?.icon).toBe('resources/icons');
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon]) {
      expect(existsSync(resolve(ROOT, String(icon))), String(icon)).toBe(true);
    }
  });

  it('rebuilds keytar per target arch at package time, and keeps the native modules out of the asar', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.asar).not.toBe(false);
    for (const module of ['better-sqlite3-multiple-ciphers', 'keytar']) {
      // Both modules are production dependencies, so electron-builder ships and rebuilds them.
      expect(packageJson.dependencies[module], module).toBeDefined();
      expect(unpackPatterns.map((it) => it.split('/').slice(0, 2).join('/'))).toContain(
        `node_modules/${module}`,
      );
    }
    for (const file of [
      'node_modules/better-sqlite3-multiple-ciphers/prebuilds/linux-x64.node',
      'node_modules/better-sqlite3-multiple-ciphers/lib/database.js',
      'node_modules/keytar/build/Release/keytar.node',
      'node_modules/keytar/lib/keytar.js',
    ]) {
      expect(matches(unpackPatterns, file), file).toBe(true);
    }
    // Nothing else is unpacked: the app's own code stays in the (integrity-checked) archive.
    expect(matches(unpackPatterns, 'out/main/index.js')).toBe(false);
    expect(matches(unpackPatterns, 'node_modules/fastify/fastify.js')).toBe(false);
  });

  it('ships the built app and package.json, not the sources, tests or the browser host bundle', () => {
    for (const file of [
      'package.json',
      packageJson.main,
      'out/preload/index.cjs',
      'out/renderer/index.html',
      'out/renderer/assets/index-abc123.js',
    ]) {
      expect(matches(filePatterns, file), file).toBe(true);
    }
    for (const file of [
      'src/main/index.ts',
      'src/renderer/src/App.tsx',
      'test/unit/repo/packaging/electron-builder-config.test.ts',
      'bench/poller-cycle.ts',
      'scripts/after-pack.cjs',
      'resources/icon-source.png',
      'docs/architecture.md',
      'out/browser/index.html',
      'electron-builder.yml',
      'tsconfig.json',
    ]) {
      expect(matches(filePatterns, file), file).toBe(false);
    }
  });

  it('packs Electron and the build tools as development dependencies only', () => {
    // electron-builder adds the production dependencies to the package by itself; anything only
    // the build needs must not be one (electron-builder refuses electron there outright).
    for (const devOnly of ['electron', 'electron-builder', '@electron/fuses', 'png2icons']) {
      expect(packageJson.dependencies[devOnly], devOnly).toBeUndefined();
      expect(packageJson.devDependencies[devOnly], devOnly).toBeDefined();
    }
  });

  it('runs the fuse hook after packing, from the path electron-builder resolves', async () => {
    expect(config.afterPack).toBe('./scripts/after-pack.cjs');
    // electron-builder resolves a "./" hook path against the project directory and requires it,
    // taking the export named like the hook.
    const hook = require(resolve(ROOT, String(config.afterPack))) as Record<string, unknown>;
    expect(typeof hook.afterPack).toBe('function');
    // electron-builder's own fuse option would flip them a second time, from another config.
    expect(config.electronFuses).toBeUndefined();
  });

  it('writes installers into dist/, which git ignores', () => {
    expect(config.directories?.output).toBe('dist');
    expect(readFileSync(`${ROOT}.gitignore`, 'utf8').split('\n')).toContain('dist/');
  });
});
