// electron-builder `afterPack` hook (electron-builder.yml): flips the Electron fuses of the
// packaged app's binary with @electron/fuses, after the app is laid out in appOutDir and before
// electron-builder signs it (a signature covers the flipped bytes). It then reads the fuse wire
// back and fails the build if any fuse is not as set, so an installer never ships without them.
//
// Fuses are bits compiled into the Electron binary that switch features off for good: unlike a
// runtime option, nothing the app or its user passes at launch can turn them back on. Why each:
// docs/architecture.md ("Packaging").
'use strict';

const path = require('node:path');
const { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } = require('@electron/fuses');

/** Every fuse this app sets, by its index in the fuse wire. Fuses not named keep Electron's default. */
const FUSES = Object.freeze({
  // ELECTRON_RUN_AS_NODE would turn the signed app into a general-purpose Node interpreter.
  [FuseV1Options.RunAsNode]: false,
  // Cookies on disk encrypted with a key from the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // NODE_OPTIONS could preload code into the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // --inspect and friends would open a debugger on the main process.
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar checked against the hash electron-builder embeds (macOS and Windows).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // The app loads only from app.asar, so the integrity check cannot be sidestepped by an app/ folder.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  // The renderer is served from app://, so file:// needs none of its legacy extra privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
});

// The hook runs inside electron-builder, so its Arch enum is at hand.
const { Arch } = require('electron-builder');

/**
 * The file to flip for the platform being packed, named as electron-builder names it: the
 * executable on Linux (`executableName`) and Windows (`<productFilename>.exe`), the .app bundle
 * on macOS (@electron/fuses finds the Electron Framework inside it).
 */
function electronBinaryPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  switch (electronPlatformName) {
    case 'linux':
      return path.join(appOutDir, packager.executableName);
    case 'win32':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.exe`);
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${packager.appInfo.productFilename}.app`);
    default:
      throw new Error(
        `after-pack: no Electron binary known for platform "${electronPlatformName}"`,
      );
  }
}

/**
 * The @electron/fuses configuration for one pack. Flipping a fuse changes the binary, which voids
 * the ad-hoc signature an arm64 (or universal) macOS Electron comes with, and Apple Silicon runs
 * no unsigned code: the signature is renewed unless a real one follows, and renewing it is
 * harmless when one does.
 */
function fuseConfig(context) {
  const mac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  return {
    version: FuseVersion.V1,
    resetAdHocDarwinSignature:
      mac && (context.arch === Arch.arm64 || context.arch === Arch.universal),
    ...FUSES,
  };
}

/** The fuses of `binary` that differ from FUSES, as readable names (empty when all are set). */
async function fusesNotSet(binary) {
  const wire = await getCurrentFuseWire(binary);
  return Object.entries(FUSES)
    .filter(([index, on]) => wire[index] !== (on ? 49 : 48))
    .map(([index, on]) => `${FuseV1Options[index]} (want ${on ? 'on' : 'off'})`);
}

async function afterPack(context) {
  const binary = electronBinaryPath(context);
  await flipFuses(binary, fuseConfig(context));
  const wrong = await fusesNotSet(binary);
  if (wrong.length > 0) {
    throw new Error(`after-pack: fuses not set in ${binary}: ${wrong.join(', ')}`);
  }
  console.log(`  • fuses set  binary=${binary}`);
}

module.exports = { afterPack, default: afterPack, FUSES, electronBinaryPath, fuseConfig };
