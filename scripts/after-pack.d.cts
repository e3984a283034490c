// Types of scripts/after-pack.cjs (the electron-builder afterPack hook), for the tests.
import type { FuseV1Config, FuseV1Options } from '@electron/fuses';

/** The part of electron-builder's AfterPackContext the hook reads. */
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  /** electron-builder's Arch: ia32 0, x64 1, armv7l 2, arm64 3, universal 4. */
  arch: number;
  packager: { executableName?: string; appInfo: { productFilename: string } };
}

export declare const FUSES: Readonly<Partial<Record<FuseV1Options, boolean>>>;
export declare function electronBinaryPath(context: AfterPackContext): string;
export declare function fuseConfig(context: AfterPackContext): FuseV1Config;
export declare function afterPack(context: AfterPackContext): Promise<void>;
declare const _default: typeof afterPack;
export default _default;
