import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createFileLogger, type FileLogger } from '@main/logging';
import { mountSmallDisk } from '@test/support/small-disk';
import { waitFor } from '@test/support/wait';

/**
 * The log on a real full disk (a small tmpfs, with the real rotating-file-stream), made as the
 * Electron app makes it: no redactor, no listener of its own, troubles said on standard error.
 * Once there is room the log must be written again and say what was lost, even when nothing more
 * is logged (an idle app) or the app closes first (issue 25): the storage watch's "writes again"
 * line could come just before the log's pause ended and be dropped, and nothing reopened the file.
 */

const disk = mountSmallDisk(8);
afterAll(() => {
  if (!('skip' in disk)) disk.unmount();
});

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.restoreAllMocks();
});

/** What the logger says on standard error, caught as it is written. */
function stderrLines(): string[] {
  const said: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.startsWith('Order Desk: the log file')) {
      said.push(text.trim());
      return true;
    }
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  });
  return said;
}

const LOST_NOTE =
  /WARN {2}logging: the log could not be written since \S+ \(ENOSPC[^)]*\); at least (\d+) line\(s\) were lost/;

const onSmallDisk = 'skip' in disk ? describe.skip : describe;
if ('skip' in disk) it.skip(`the log on a real full disk: ${disk.skip}`, () => undefined);

onSmallDisk('the log on a real full disk (an 8 MB tmpfs)', () => {
  const small = disk as Exclude<typeof disk, { skip: string }>;

  /** A fresh log folder on the small disk, and a logger on it as index.ts makes one. */
  async function logOnSmallDisk(name: string, options: { rotateAt?: number } = {}) {
    const dir = join(small.dir, name);
    mkdirSync(dir);
    const said = stderrLines();
    const log = createFileLogger({ dir, ...options });
    cleanup.push(async () => {
      small.free();
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const file = () =>
      existsSync(join(dir, 'main.log')) ? readFileSync(join(dir, 'main.log'), 'utf8') : '';
    log.info('started');
    await waitFor(
      () => file().includes('started'),
      10_000,
      'the first line never reached the file',
    );
    return { dir, log, said, file };
  }

  /** Fills the disk and logs until the log says it cannot be written; then logs `after` lines more. */
  async function meetTheFullDisk(log: FileLogger, said: string[], after: number) {
    small.fill();
    let n = 0;
    await waitFor(
      () => {
        log.info(`while full ${n++} ${'x'.repeat(200)}`);
        return said.some((l) => /cannot be written \(ENOSPC/.test(l));
      },
      15_000,
      () => `the log never said it could not be written: ${JSON.stringify(said)}`,
    );
    for (let i = 0; i < after; i++) log.info(`dropped while full ${i}`);
  }

  it('is written again once there is room, though nothing more is logged, and says how many lines were lost', async () => {
    const { log, said, file } = await logOnSmallDisk('idle');
    await meetTheFullDisk(log, said, 3);
    small.free();
    // As the storage watch's "the disk takes writes again": logged with room, before the pause ends.
    log.warn('the disk has room again');

    const note = await waitFor(
      () => LOST_NOTE.exec(file()),
      20_000,
      () =>
        `the log was never written again: ${JSON.stringify(file().slice(-400))}; said ${JSON.stringify(said)}`,
    );
    expect(Number(note[1])).toBeGreaterThanOrEqual(4);
    log.info('written after the outage');
    await waitFor(() => file().includes('written after the outage'), 10_000);
    expect(said).toEqual([
      expect.stringMatching(/cannot be written \(ENOSPC.*The app itself goes on/),
      expect.stringMatching(/is written again/),
    ]);
  }, 40_000);

  it('closed during an outage once there is room: the file still says how many lines were lost', async () => {
    const { log, said, file } = await logOnSmallDisk('closing');
    await meetTheFullDisk(log, said, 2);
    small.free();
    log.warn('the disk has room again');
    await log.close();
    const note = LOST_NOTE.exec(file());
    expect(note, `main.log ends: ${JSON.stringify(file().slice(-400))}`).not.toBeNull();
    expect(Number(note?.[1])).toBeGreaterThanOrEqual(3);
  }, 40_000);

  it('a rotation that meets the full disk: written again once there is room', async () => {
    // The first rotation must write rotating-file-stream's list of rotated files, a new file the
    // full disk refuses: the rotation fails after main.log was moved aside.
    const { dir, log, said, file } = await logOnSmallDisk('rotation', { rotateAt: 2048 });
    await meetTheFullDisk(log, said, 2);
    expect(readdirSync(dir).filter((f) => f.endsWith('-main.log'))).toHaveLength(1);
    small.free();

    const note = await waitFor(
      () => LOST_NOTE.exec(file()),
      20_000,
      () =>
        `the log was never written again: ${JSON.stringify(readdirSync(dir))}; said ${JSON.stringify(said)}`,
    );
    expect(Number(note[1])).toBeGreaterThanOrEqual(2);
    // Said once the write's callback has run, which can be a moment after the file shows it.
    await waitFor(
      () => said.length >= 2,
      5_000,
      () => `said ${JSON.stringify(said)}`,
    );
    expect(said).toEqual([
      expect.stringMatching(/cannot be written \(ENOSPC/),
      expect.stringMatching(/is written again/),
    ]);
  }, 40_000);
});
