import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger, Redactor } from '@main/logging';
import type { Timers } from '@main/timers';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'od-log-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('Redactor', () => {
  it('masks registered secrets and credential-looking text', () => {
    const r = new Redactor();
    r.add('s3cr3t-client-value');
    expect(r.redact('secret is s3cr3t-client-value here')).toBe('secret is [redacted] here');
    expect(r.redact('Authorization: Bearer abc.DEF-123_x')).toBe(
      'Authorization: Bearer [redacted]',
    );
    expect(r.redact('got whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw=')).toBe('got [redacted]');
    expect(r.redact('{"access_token":"tok123456","expires_in":3600}')).not.toContain('tok123456');
    expect(r.redact('client_secret=abcdefgh&grant_type=client_credentials')).not.toContain(
      'abcdefgh',
    );
  });

  it('ignores values too short to be secrets, so ordinary words survive', () => {
    const r = new Redactor();
    r.add('abc');
    expect(r.redact('abc def')).toBe('abc def');
  });
});

describe('file logger', () => {
  it('writes scoped, levelled, redacted lines to main.log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'od-log-'));
    dirs.push(dir);
    const log = createFileLogger({
      dir,
      level: 'info',
      clock: { now: () => Date.UTC(2026, 10, 22) },
    });
    log.redactor.add('client-secret-value-1');
    const sync = log.child('sync');
    sync.debug('not written');
    sync.info('pushed 3 changes with client-secret-value-1');
    log.error('failed', new Error('boom'));
    await log.close();
    const lines = readFileSync(join(dir, 'main.log'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('2026-11-22T00:00:00.000Z INFO  sync: pushed 3 changes with [redacted]');
    expect(lines[1]).toMatch(/^2026-11-22T00:00:00.000Z ERROR failed: Error: boom/);
  });
});

/** A log stream whose writes fail while `full` is set, as a file on a full disk does. */
class FlakyFile extends Writable {
  static full = false;
  static opened = 0;
  static written: string[] = [];
  constructor() {
    super();
    FlakyFile.opened++;
  }
  override _write(chunk: Buffer, _encoding: string, callback: (error?: Error | null) => void) {
    if (FlakyFile.full)
      return callback(
        Object.assign(new Error('ENOSPC: no space left on device, write'), {
          code: 'ENOSPC',
        }),
      );
    FlakyFile.written.push(chunk.toString());
    callback();
  }
}

/** A stream whose writes never complete (no callback, no 'error') when made while `hang` is set. */
class HangingFile extends Writable {
  static hang = true;
  static opened = 0;
  static written: string[] = [];
  private readonly hangs = HangingFile.hang;
  constructor() {
    super();
    HangingFile.opened++;
  }
  override _write(chunk: Buffer, _encoding: string, callback: (error?: Error | null) => void) {
    if (this.hangs) return;
    HangingFile.written.push(chunk.toString());
    callback();
  }
}

/** A clock and timers moved by hand: advance(ms) fires, in order, every timer due within it. */
function manualTime() {
  let now = Date.UTC(2026, 0, 1);
  let nextId = 1;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      due.set(nextId, { at: now + ms, fn });
      return nextId++;
    },
    clearTimeout: (handle) => {
      due.delete(handle as number);
    },
  };
  return {
    clock: { now: () => now },
    timers,
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        await nextTurn();
        const next = [...due.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next) break;
        due.delete(next[0]);
        now = next[1].at;
        next[1].fn();
      }
      now = until;
      await nextTurn();
    },
  };
}

const withoutTime = (lines: string[]) => lines.map((l) => l.trim().replace(/^\S+ /, ''));

describe('file logger on a disk that refuses writes', () => {
  it('never throws, says so once, drops and counts the lines meanwhile, and resumes', async () => {
    FlakyFile.full = false;
    FlakyFile.opened = 0;
    FlakyFile.written = [];
    let now = Date.UTC(2026, 0, 1);
    const trouble: string[] = [];
    const log = createFileLogger({
      dir: mkdtempSync(join(tmpdir(), 'od-log-')),
      clock: { now: () => now },
      onTrouble: (line) => trouble.push(line),
      openStream: () => new FlakyFile(),
    });
    log.info('one');
    await nextTurn();
    FlakyFile.full = true;
    log.info('two'); // fails in the stream: the stream ends, nothing is thrown
    await nextTurn();
    for (let i = 0; i < 5; i++) log.info(`lost ${i}`);
    await nextTurn();
    expect(trouble).toEqual([
      expect.stringMatching(/cannot be written \(ENOSPC.*The app itself goes on/),
    ]);
    // Still full at the next try: the file is opened again, fails again, and nothing more is said.
    now += 5_000;
    log.info('still full');
    await nextTurn();
    expect(trouble).toHaveLength(1);
    expect(FlakyFile.opened).toBe(2);
    // Room again: after the (doubled) pause the next line opens the file, which says what was lost.
    FlakyFile.full = false;
    now += 10_000;
    log.info('three');
    await nextTurn();
    expect(trouble).toHaveLength(2);
    expect(trouble[1]).toMatch(/is written again/);
    // Lost: the five dropped, and the two the failing streams refused ('two', 'still full').
    expect(FlakyFile.written.map((l) => l.trim().replace(/^\S+ /, ''))).toEqual([
      'INFO  one',
      expect.stringMatching(
        /^WARN {2}logging: the log could not be written since .* \(ENOSPC.*\); at least 7 line\(s\) were lost$/,
      ),
      'INFO  three',
    ]);
    await log.close();
  });

  it('survives a log folder that cannot be made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'od-log-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const trouble: string[] = [];
    const log = createFileLogger({
      dir: join(dir, 'not-a-folder', 'logs'),
      onTrouble: (line) => trouble.push(line),
    });
    log.error('nothing breaks', new Error('boom'));
    expect(trouble).toEqual([expect.stringMatching(/cannot be written/)]);
    await log.close();
  });

  it('opens the file again after the pause by itself: an idle app still records what was lost', async () => {
    FlakyFile.full = false;
    FlakyFile.opened = 0;
    FlakyFile.written = [];
    const time = manualTime();
    const trouble: string[] = [];
    const log = createFileLogger({
      dir: tempDir(),
      clock: time.clock,
      timers: time.timers,
      onTrouble: (line) => trouble.push(line),
      openStream: () => new FlakyFile(),
    });
    log.info('one');
    await nextTurn();
    FlakyFile.full = true;
    log.info('two');
    await nextTurn();
    log.info('lost while full');
    FlakyFile.full = false;
    log.info('room again, but before the pause ends'); // dropped: the pause is not over
    // No line after the pause: the timer opens the file, which says what was lost.
    await time.advance(5_000);
    expect(FlakyFile.opened).toBe(2);
    expect(trouble).toEqual([
      expect.stringMatching(/cannot be written \(ENOSPC/),
      expect.stringMatching(/is written again/),
    ]);
    expect(withoutTime(FlakyFile.written)).toEqual([
      'INFO  one',
      expect.stringMatching(/^WARN {2}logging: .*\(ENOSPC.*\); at least 3 line\(s\) were lost$/),
    ]);
    await log.close();
  });

  it('closed during an outage: one last try records what was lost', async () => {
    FlakyFile.full = false;
    FlakyFile.opened = 0;
    FlakyFile.written = [];
    const time = manualTime();
    const trouble: string[] = [];
    const log = createFileLogger({
      dir: tempDir(),
      clock: time.clock,
      timers: time.timers,
      onTrouble: (line) => trouble.push(line),
      openStream: () => new FlakyFile(),
    });
    FlakyFile.full = true;
    log.info('one');
    await nextTurn();
    FlakyFile.full = false;
    log.info('room again, but before the pause ends');
    await log.close();
    expect(withoutTime(FlakyFile.written)).toEqual([
      expect.stringMatching(/^WARN {2}logging: .*; at least 2 line\(s\) were lost$/),
    ]);
    log.info('after close'); // nothing: closed
    await time.advance(60_000);
    expect(FlakyFile.opened).toBe(2);
    expect(trouble).toEqual([expect.stringMatching(/cannot be written/)]);
  });

  it('a stream whose writes never complete is taken as failed, said once, and replaced', async () => {
    HangingFile.hang = true;
    HangingFile.opened = 0;
    HangingFile.written = [];
    const time = manualTime();
    const trouble: string[] = [];
    const log = createFileLogger({
      dir: tempDir(),
      clock: time.clock,
      timers: time.timers,
      onTrouble: (line) => trouble.push(line),
      openStream: () => new HangingFile(),
    });
    log.info('one');
    log.info('two');
    await time.advance(29_000);
    expect(trouble).toEqual([]);
    await time.advance(1_000);
    expect(trouble).toEqual([
      expect.stringMatching(/cannot be written \(a write did not complete within 30 s\)/),
    ]);
    HangingFile.hang = false;
    log.info('dropped while the file is away');
    await time.advance(5_000);
    expect(HangingFile.opened).toBe(2);
    expect(trouble[1]).toMatch(/is written again/);
    log.info('three');
    await nextTurn();
    expect(withoutTime(HangingFile.written)).toEqual([
      expect.stringMatching(
        /^WARN {2}logging: .*\(a write did not complete within 30 s\); at least 1 line\(s\) were lost$/,
      ),
      'INFO  three',
    ]);
    await log.close();
  });

  it('close does not wait for ever on a stream that hangs', async () => {
    HangingFile.hang = true;
    const time = manualTime();
    const log = createFileLogger({
      dir: tempDir(),
      clock: time.clock,
      timers: time.timers,
      onTrouble: () => undefined,
      openStream: () => new HangingFile(),
    });
    log.info('never completes');
    let closed = false;
    void log.close().then(() => {
      closed = true;
    });
    await nextTurn();
    expect(closed).toBe(false);
    await time.advance(2_000);
    expect(closed).toBe(true);
  });
});
