import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { AppInfo } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { afterPack, FUSES, fuseConfig, type AfterPackContext } from '@repo/scripts/after-pack.cjs';
import { loadBuilderConfig, packageJson } from './builder-config';
import { fakeElectronBinary, readWires, withoutWires } from './fake-electron';

/**
 * The fuse check on the packaged configuration: electron-builder.yml's afterPack hook run as
 * electron-builder runs it, on a stand-in Electron binary laid out where electron-builder puts
 * the real one for each platform, and the fuse wire read back.
 */
const config = loadBuilderConfig();

// The contract, written out here and not read from the hook, so a wrong fuse there fails.
const WANTED: Record<string, '0' | '1'> = {
  RunAsNode: '0',
  EnableCookieEncryption: '1',
  EnableNodeOptionsEnvironmentVariable: '0',
  EnableNodeCliInspectArguments: '0',
  EnableEmbeddedAsarIntegrityValidation: '1',
  OnlyLoadAppFromAsar: '1',
  GrantFileProtocolExtraPrivileges: '0',
};
/** Wire indexes the hook must leave as Electron set them (V8 snapshot; wasm trap handlers). */
const UNTOUCHED = [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot, 8];

/** The wire after the hook: WANTED where named, the original bytes elsewhere. */
function expectedWire(original: string): string {
  return [...original].map((state, index) => WANTED[FuseV1Options[index] ?? ''] ?? state).join('');
}

// electron-builder's own naming: AppInfo gives the product's file name (win, mac), the Linux
// packager the executable name from linux.executableName.
const appInfo = new AppInfo({ config, metadata: packageJson } as never, null);
const ARCH = { x64: 1, arm64: 3, universal: 4 } as const;

const work = mkdtempSync(join(tmpdir(), 'order-desk-fuses-'));
// The hook reports each binary it flipped, as electron-builder's own steps do.
beforeAll(() => void vi.spyOn(console, 'log').mockImplementation(() => undefined));
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(work, { recursive: true, force: true });
});
let packs = 0;

/** A packed app for `platform` in a fresh appOutDir, with the stand-in binary where it belongs. */
function packedApp(platform: 'linux' | 'win32' | 'darwin', binary: Buffer) {
  const appOutDir = join(work, `${platform}-${packs++}`);
  const relative = {
    linux: String(config.linux?.executableName),
    win32: `${appInfo.productFilename}.exe`,
    darwin: `${appInfo.productFilename}.app/Contents/Frameworks/Electron Framework.framework/Electron Framework`,
  }[platform];
  const file = join(appOutDir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, binary);
  const context: AfterPackContext = {
    appOutDir,
    electronPlatformName: platform,
    arch: ARCH.x64,
    packager: { executableName: config.linux?.executableName ?? undefined, appInfo },
  };
  return { file, context };
}

describe('the afterPack hook sets the fuses of the packaged app', () => {
  it('names exactly the fuses the app needs, each set the safe way', () => {
    const named = Object.fromEntries(
      Object.entries(FUSES).map(([index, on]) => [FuseV1Options[Number(index)], on ? '1' : '0']),
    );
    expect(named).toEqual(WANTED);
  });

  it.each(['linux', 'win32', 'darwin'] as const)(
    'on %s: flips the wire in the binary electron-builder packed, and nothing else',
    async (platform) => {
      for (const original of ['101100011', '111111111', '000000000']) {
        const before = fakeElectronBinary(original);
        const { file, context } = packedApp(platform, before);
        await afterPack(context);

        const after = readFileSync(file);
        expect(readWires(after)).toEqual([expectedWire(original)]);
        for (const index of UNTOUCHED) expect(readWires(after)[0]?.[index]).toBe(original[index]);
        // Only fuse bytes change: the rest of the binary is as packed.
        expect(withoutWires(after).equals(withoutWires(before))).toBe(true);

        // Read back the way @electron/fuses reads a packaged app (the .app bundle on macOS).
        const appPath =
          platform === 'darwin' ? join(context.appOutDir, `${appInfo.productFilename}.app`) : file;
        const wire = await getCurrentFuseWire(appPath);
        expect(wire.version).toBe('1');
        for (const [name, state] of Object.entries(WANTED)) {
          const index = FuseV1Options[name as keyof typeof FuseV1Options];
          expect(String.fromCharCode(wire[index] as number), name).toBe(state);
        }
      }
    },
  );

  it('flips both slices of a universal macOS binary', async () => {
    const { file, context } = packedApp('darwin', fakeElectronBinary('101100011', 2));
    await afterPack(context);
    expect(readWires(readFileSync(file))).toEqual([
      expectedWire('101100011'),
      expectedWire('101100011'),
    ]);
  });

  it('renews the ad-hoc signature only where Apple Silicon needs it', () => {
    const contextFor = (electronPlatformName: string, arch: number): AfterPackContext => ({
      appOutDir: work,
      electronPlatformName,
      arch,
      packager: { appInfo },
    });
    expect(fuseConfig(contextFor('darwin', ARCH.arm64)).resetAdHocDarwinSignature).toBe(true);
    expect(fuseConfig(contextFor('darwin', ARCH.universal)).resetAdHocDarwinSignature).toBe(true);
    expect(fuseConfig(contextFor('mas', ARCH.arm64)).resetAdHocDarwinSignature).toBe(true);
    expect(fuseConfig(contextFor('darwin', ARCH.x64)).resetAdHocDarwinSignature).toBe(false);
    expect(fuseConfig(contextFor('linux', ARCH.arm64)).resetAdHocDarwinSignature).toBe(false);
    expect(fuseConfig(contextFor('win32', ARCH.arm64)).resetAdHocDarwinSignature).toBe(false);
  });

  it('fails the build when it cannot set them', async () => {
    // Nothing where electron-builder puts the binary (a renamed product, an unknown layout).
    const { context } = packedApp('linux', fakeElectronBinary());
    await expect(
      afterPack({ ...context, packager: { ...context.packager, executableName: 'elsewhere' } }),
    ).rejects.toThrow(/ENOENT/);
    // A binary without a fuse wire.
    await expect(afterPack(packedApp('win32', Buffer.alloc(8192)).context)).rejects.toThrow(
      /sentinel/,
    );
    // An Electron too old to have the fuses the app relies on.
    await expect(afterPack(packedApp('linux', fakeElectronBinary('1011')).context)).rejects.toThrow(
      /not long enough/,
    );
    await expect(
      afterPack({ ...packedApp('linux', fakeElectronBinary()).context, electronPlatformName: 'x' }),
    ).rejects.toThrow(/no Electron binary known/);
  });
});
