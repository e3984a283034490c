import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs of its own: a real disk that fills up, for the tests of a full disk. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk refuses (ENOSPC): nothing more fits. */
  fill(): void;
  /** Removes the filler: there is room again. */
  free(): void;
  unmount(): void;
}

/**
 * Mounts a tmpfs of `megabytes` on a fresh folder. It needs root (CI runs as root); when the
 * mount is refused, the reason is returned instead, for the test to skip with.
 */
export function mountSmallDisk(megabytes: number): SmallDisk | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'order-desk-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    rmdirSync(dir);
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return {
      skip: `a small tmpfs could not be mounted (${stderr || (error as Error).message}); the full-disk tests need root, as in CI`,
    };
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      try {
        for (const size of [1 << 20, 64 << 10, 4 << 10, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x55);
          for (;;) {
            try {
              writeSync(fd, chunk);
            } catch (error) {
              if ((error as { code?: string }).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmdirSync(dir);
    },
  };
}
