import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listPackage } from '@electron/asar';
import { getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuilderConfig, packageJson, ROOT } from './builder-config';
import { fakeElectronBinary, readWires } from './fake-electron';

/**
 * electron-builder itself on this project's electron-builder.yml: a Linux `dir` build of a copy
 * of the project with the stand-in Electron, so nothing is downloaded. It shows what the other
 * suites cannot: the afterPack hook loaded from its path and called on the laid-out binary, and
 * the archive the files and asarUnpack patterns make. Unlike a real build, and only to stay
 * offline and leave node_modules alone: no native rebuild (npmRebuild), the stand-in Electron.
 */
const run = promisify(execFile);
const config = loadBuilderConfig();
const project = mkdtempSync(join(tmpdir(), 'order-desk-pack-'));
const appOutDir = join(project, 'dist', 'linux-unpacked');
const resourcesDir = join(appOutDir, 'resources');
let archive: string[] = [];

beforeAll(async () => {
  // The project as electron-builder sees it: its configuration, package.json, the hook, the
  // icons, a built app (stubs of electron-vite's output), and files that must stay out.
  for (const file of ['package.json', 'scripts/after-pack.cjs', 'resources']) {
    cpSync(join(ROOT, file), join(project, file), { recursive: true });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(project, 'node_modules'), 'dir');
  const stubs: Record<string, string> = {
    [packageJson.main]: 'export {};\n',
    'out/preload/index.cjs': '"use strict";\n',
    'out/renderer/index.html': '<!doctype html><title>Order Desk</title>\n',
    'out/browser/index.html': '<!doctype html><title>browser host</title>\n',
    'src/main/index.ts': 'export {};\n',
    'test/unit/example.test.ts': 'export {};\n',
  };
  for (const [file, text] of Object.entries(stubs)) {
    mkdirSync(join(project, file, '..'), { recursive: true });
    writeFileSync(join(project, file), text);
  }
  const electronDist = join(project, '.electron');
  mkdirSync(electronDist);
  writeFileSync(join(electronDist, 'electron'), fakeElectronBinary(), { mode: 0o755 });
  writeFileSync(join(electronDist, 'LICENSE'), 'MIT\n');
  const electronVersion = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  writeFileSync(join(electronDist, 'version'), electronVersion);
  writeFileSync(
    join(project, 'electron-builder.json'),
    JSON.stringify({ ...config, npmRebuild: false, electronDist, electronVersion }),
  );

  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--publish',
      'never',
      '--config',
      'electron-builder.json',
    ],
    // The hook path in the configuration is relative: electron-builder resolves it from here.
    { cwd: project, env: { ...process.env, CI: 'true' }, maxBuffer: 16 * 1024 * 1024 },
  );
  archive = listPackage(join(resourcesDir, 'app.asar'), { isPack: false }).map((it) =>
    it.replaceAll('\\', '/'),
  );
}, 240_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('electron-builder packs the app with this configuration', () => {
  it('runs the fuse hook on the binary it laid out', async () => {
    const binary = join(appOutDir, String(config.linux?.executableName));
    expect(readWires(readFileSync(binary))).toEqual(['010011001']);
    const wire = await getCurrentFuseWire(binary);
    expect(wire.version).toBe('1');
  });

  it('archives the built app and package.json, not the sources, tests or browser host bundle', () => {
    expect(archive).toEqual(
      expect.arrayContaining([
        '/package.json',
        `/${packageJson.main}`,
        '/out/preload/index.cjs',
        '/out/renderer/index.html',
      ]),
    );
    const ownFiles = archive.filter((it) => !it.startsWith('/node_modules'));
    for (const file of ownFiles) {
      expect(file).toMatch(/^\/(package\.json|out(\/(main|preload|renderer)(\/.*)?)?)$/);
    }
  });

  it('adds every production dependency, and no development one', () => {
    const modules = new Set(
      archive
        .map((it) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(it)?.[1])
        .filter((it) => it != null),
    );
    for (const dependency of Object.keys(packageJson.dependencies)) {
      expect(modules.has(dependency), dependency).toBe(true);
    }
    for (const devOnly of ['electron', 'electron-builder', 'vitest', 'react', 'typescript']) {
      expect(modules.has(devOnly), devOnly).toBe(false);
    }
  });

  it('unpacks the SQLite build and keytar beside the archive, with only this platform’s binary', () => {
    const unpacked = join(resourcesDir, 'app.asar.unpacked', 'node_modules');
    const sqlite = 'better-sqlite3-multiple-ciphers';
    for (const file of [
      `${sqlite}/prebuilds/linux-${process.arch}.node`,
      `${sqlite}/lib/index.js`,
      `${sqlite}/package.json`,
      'keytar/build/Release/keytar.node',
      'keytar/lib/keytar.js',
      'keytar/package.json',
    ]) {
      expect(existsSync(join(unpacked, file)), file).toBe(true);
    }
    for (const leftover of [
      `${sqlite}/deps`,
      `${sqlite}/src`,
      `${sqlite}/binding.gyp`,
      `${sqlite}/prebuilds/win32-x64.node`,
      `${sqlite}/prebuilds/darwin-arm64.node`,
      `${sqlite}/prebuilds/linuxmusl-${process.arch}.node`,
    ]) {
      expect(existsSync(join(unpacked, leftover)), leftover).toBe(false);
    }
  });
});
