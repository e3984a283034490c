import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalStore, type LocalStore } from '@main/stores';
import { startTestSandbox, type TestSandbox } from '@test/support/sandbox';
import { serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { setFaults } from '@test/support/client-harness';
import {
  clearFaults,
  createLocalProtocols,
  expectOneOrderPerProtocol,
  serverOrdersBySourceId,
} from '@test/support/bulk';
import { TEST_KEY } from '@test/support/store-key';
import { REPO_ROOT } from '@test/support/repo-files';

const N = 30;

let sandbox: TestSandbox | null = null;
let store: LocalStore | null = null;
let dir: string | null = null;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children.splice(0))
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  store?.close();
  await sandbox?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = null;
  sandbox = null;
  dir = null;
});

function spawnChild(storeFile: string, sb: TestSandbox, mode: 'orders' | 'protocols' = 'orders') {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/bulk-child.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      BULK_BASE_URL: sb.baseUrl,
      BULK_TOKEN_URL: sb.tokenUrl,
      BULK_CLIENT_ID: sb.clientId,
      BULK_CLIENT_SECRET: sb.clientSecret,
      BULK_STORE: storeFile,
      BULK_GRACE_MS: '1000',
      BULK_CONCURRENCY: '2',
      BULK_MODE: mode,
    },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, output: () => output };
}

async function killMidBatchAndResume(tag: string, faults: Record<string, unknown>) {
  sandbox = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'order-desk-kill-'));
  const storeFile = join(dir, 'store.db');
  store = createLocalStore(storeFile, { key: TEST_KEY });
  // Twins among them: every tenth protocol repeats its neighbour's patient and content.
  createLocalProtocols(store, N, tag, { twinEvery: 10 });
  await setFaults(sandbox, { ...faults, match: { method: 'POST', path: '/v1/orders' } });
  const sb = sandbox;
  const st = store;

  const first = spawnChild(storeFile, sb);
  const unsettledAtKill = await waitFor(
    async () => {
      const count = [...(await serverOrdersBySourceId(sb, `${tag}-`)).values()].flat().length;
      if (count >= N) throw new Error(`the batch finished before the kill:\n${first.output()}`);
      if (count < 5) return null;
      const batch = st.batches.list()[0];
      const progress = batch ? st.batches.progress(batch.id) : null;
      const unsettled = progress ? progress.inDoubt + progress.sending : 0;
      if (faults.dropResponseRate && (progress?.inDoubt ?? 0) === 0) return null;
      return { count, unsettled };
    },
    20_000,
    'the server to hold between 5 and 29 orders of the batch',
    5,
  );
  first.child.kill('SIGKILL');
  expect((await first.exit).signal).toBe('SIGKILL');
  const batchId = st.batches.list()[0]!.id;
  const atKill = st.batches.progress(batchId);
  expect(atKill.created).toBeLessThan(N);
  // No claim ahead: the kill left at most the creates in flight (concurrency 2) unsettled by it.
  expect(atKill.sending).toBeLessThanOrEqual(2);

  const second = spawnChild(storeFile, sb);
  const result = await second.exit;
  expect(result.code, second.output()).toBe(0);
  await clearFaults(sb);
  await expectOneOrderPerProtocol(sb, st, batchId, `${tag}-`);
  expect(st.batches.progress(batchId)).toMatchObject({ total: N, created: N, rejected: 0 });
  return { unsettledAtKill, atKill, restartLog: second.output() };
}

describe('a bulk submitter killed mid-batch (SIGKILL) and restarted', () => {
  it('resumes with exactly one order per protocol', { timeout: 60_000 }, async () => {
    const { atKill } = await killMidBatchAndResume('kill', { latencyMs: 100 });
    expect(atKill.created + atKill.sending + atKill.inDoubt).toBeGreaterThanOrEqual(5);
  });

  it(
    'resumes with exactly one order per protocol when responses were dropped (items in doubt at the kill)',
    { timeout: 60_000 },
    async () => {
      const { atKill, restartLog } = await killMidBatchAndResume('killdrop', {
        latencyMs: 100,
        dropResponseRate: 0.3,
      });
      expect(atKill.inDoubt + atKill.sending).toBeGreaterThan(0);
      // The restarted process reconciled before resending.
      expect(restartLog).toMatch(/reconciled \d+ in-doubt order create/);
    },
  );
});

describe('a protocol push killed (SIGKILL) and restarted', () => {
  it(
    'every drafted protocol, twins included, keeps its own row and its own server copy',
    { timeout: 60_000 },
    async () => {
      sandbox = await startTestSandbox();
      dir = mkdtempSync(join(tmpdir(), 'order-desk-kill-'));
      const storeFile = join(dir, 'store.db');
      store = createLocalStore(storeFile, { key: TEST_KEY });
      const ids = createLocalProtocols(store, N, 'pkill', { twinEvery: 10 });
      await setFaults(sandbox, {
        latencyMs: 100,
        dropResponseRate: 0.3,
        match: { method: 'POST', path: '/v1/protocols' },
      });
      const sb = sandbox;
      const st = store;
      const first = spawnChild(storeFile, sb, 'protocols');
      await waitFor(
        async () => {
          const made = (await serverProtocols(sb)).length;
          if (made >= N) throw new Error(`the push finished before the kill:\n${first.output()}`);
          return made >= 5 && st.jobs.counts({ kind: 'protocol' }).in_doubt > 0;
        },
        20_000,
        'the server to hold some of the protocols, some answers lost',
        5,
      );
      first.child.kill('SIGKILL');
      expect((await first.exit).signal).toBe('SIGKILL');

      const second = spawnChild(storeFile, sb, 'protocols');
      const result = await second.exit;
      expect(result.code, second.output()).toBe(0);
      await clearFaults(sb);
      const server = await serverProtocols(sb);
      expect(server).toHaveLength(N);
      const local = ids.map((id) => st.protocols.get(id));
      expect(local.every((p) => p?.syncState === 'synced' && p.change === null)).toBe(true);
      expect(new Set(local.map((p) => p!.serverId)).size).toBe(N);
      expect(new Set(local.map((p) => p!.serverId))).toEqual(new Set(server.map((p) => p.id)));
      expect(st.protocols.count({ includeDeleted: true })).toBe(N);
    },
  );
});
