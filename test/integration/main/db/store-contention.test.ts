import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStore, type LocalStore } from '@main/stores';
import { protocolFor } from '@test/support/bulk';
import { TEST_KEY } from '@test/support/store-key';
import { repoFile } from '@test/support/repo-files';

const WRITER = repoFile('test', 'fixtures', 'db-writer.mjs');

let store: LocalStore | null = null;
let dir: string | null = null;
afterEach(() => {
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = null;
  dir = null;
});

/** Another process writing the same file in short transactions, until stop(). */
async function startWriter(file: string) {
  const child = spawn(process.execPath, [WRITER, file, TEST_KEY], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout.on('data', () => out.includes('ready') && resolve());
  });
  return {
    async stop(): Promise<number> {
      const exit = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end('stop\n');
      await exit;
      return Number(out.split('\n')[1]);
    },
  };
}

describe('the store beside another connection writing the same file', () => {
  it('every job transition waits for the lock instead of failing with SQLITE_BUSY', async () => {
    dir = mkdtempSync(join(tmpdir(), 'order-desk-contention-'));
    const file = join(dir, 'store.db');
    store = createLocalStore(file, { key: TEST_KEY });
    const s = store;
    const batch = s.batches.insertBatch(
      Array.from({ length: 50 }, (_, i) => ({
        protocolLocalId: null,
        request: protocolFor(`busy-${i}`),
      })),
      { concurrency: 50 },
    );
    const writer = await startWriter(file);
    // Each round reads and then writes in one transaction, the pattern that meets
    // SQLITE_BUSY(_SNAPSHOT) when a transaction begins deferred and the other connection commits
    // between its read and its write: claim, in doubt, queued again, then claim and done.
    let transitions = 0;
    const until = Date.now() + 1_500;
    let round = 0;
    while (Date.now() < until || round < 3) {
      const claimed = s.transaction(() => s.jobs.claimDue('order', Date.now(), 1));
      for (const job of claimed) {
        s.transaction(() =>
          s.jobs.settle(job.id, ['sending'], {
            to: 'in_doubt',
            error: { kind: 'transport', message: 'x' },
          }),
        );
        s.transaction(() => s.jobs.settle(job.id, ['in_doubt'], { to: 'queued', error: null }));
        transitions += 3;
      }
      s.protocols.createDraft(protocolFor(`busy-draft-${round}`));
      round++;
      await new Promise((r) => setImmediate(r));
    }
    for (const job of s.transaction(() => s.jobs.claimDue('order', Date.now(), 1))) {
      s.transaction(() => s.jobs.settle(job.id, ['sending'], { to: 'done', error: null }));
    }
    const writerCommits = await writer.stop();

    expect(writerCommits).toBeGreaterThan(100);
    expect(transitions).toBeGreaterThan(100);
    expect(s.batches.progress(batch.id)).toMatchObject({ total: 50, sending: 0, inDoubt: 0 });
    expect(s.protocols.count()).toBe(round);
  });
});
