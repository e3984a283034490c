import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileLogger, Redactor } from '../../src/main/logging';

const dirs: string[] = [];
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
