import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * better-sqlite3 and keytar are built for one runtime at a time (`npm start` rebuilds them for
 * Electron). Every npm script that loads them must first switch the build to the runtime it runs:
 * Node for the sandbox, the browser host, the benches and the tests; Electron for the app.
 */
const scripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

const script = fileURLToPath(new URL('../../scripts/native-abi.mjs', import.meta.url));

const runsUnderNode = (command: string) => /\b(tsx|vitest|playwright)\b/.test(command);
const runsElectron = (command: string) => /\belectron-vite (preview|dev)\b/.test(command);

describe('npm scripts and the native modules', () => {
  it('switch the native modules to Node before anything loads them under Node', () => {
    const underNode = Object.entries(scripts).filter(([, command]) => runsUnderNode(command));
    expect(underNode.map(([name]) => name)).toEqual(
      expect.arrayContaining(['sandbox', 'browser', 'test:unit', 'test:e2e', 'bench:bulk']),
    );
    for (const [name, command] of underNode) {
      expect(command, name).toMatch(/^node scripts\/native-abi\.mjs node && /);
    }
  });

  it('mark them as built for neither runtime before electron-builder rebuilds them', () => {
    // electron-builder rebuilds them in place for the platform and arch it packs (npmRebuild);
    // the marker must then match no runtime, so the next `npm test` or `npm start` rebuilds.
    expect(scripts.package).toMatch(
      /^node scripts\/native-abi\.mjs packaged && .*\belectron-builder$/,
    );
    const cwd = mkdtempSync(join(tmpdir(), 'order-desk-abi-'));
    try {
      mkdirSync(join(cwd, 'node_modules'));
      execFileSync(process.execPath, [script, 'packaged'], { cwd, stdio: 'pipe' });
      const marker = JSON.parse(
        readFileSync(join(cwd, 'node_modules/.order-desk-native-abi.json'), 'utf8'),
      ) as { target: string };
      expect(marker.target).not.toMatch(/^(node|electron)$/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('switch them to Electron before Electron starts, once the Electron binary is there', () => {
    // Electron's binary first (scripts/ensure-electron.mjs, test/integration/scripts): a machine
    // that cannot get it must not spend minutes rebuilding for a runtime it cannot start.
    const electron = Object.entries(scripts).filter(([, command]) => runsElectron(command));
    expect(electron.map(([name]) => name).sort()).toEqual(['dev', 'start']);
    for (const [name, command] of electron) {
      expect(command, name).toMatch(
        /^node scripts\/ensure-electron\.mjs && node scripts\/native-abi\.mjs electron && electron-vite (preview|dev)$/,
      );
    }
  });
});
