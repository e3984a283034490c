/**
 * Bulk submission overhead: BulkSubmitter on N protocols against a bare loop of the same N create
 * calls at the same concurrency, on the sandbox in a child process (bench/README.md).
 *
 *   npx tsx bench/bulk-submit.ts [--count 1000] [--concurrency 4] [--rounds 3] [--latency 0,10]
 *
 * --latency: one pass per value, with that many ms injected by the sandbox before each create
 * (a stand-in for the network round trip; 0 is loopback, where the client's CPU is the limit).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient, type ApiClient } from '../src/main/api/client';
import { TokenManager } from '../src/main/connections/token-manager';
import { CoreEventBus } from '../src/main/events';
import { createLocalStore, type LocalStore } from '../src/main/store';
import { BulkSubmitter } from '../src/main/bulk/bulk-submitter';
import type { CreateOrderRequest, ProtocolRequest } from '../src/shared/api';
import { protocolFor } from '../test/integration/main/bulk-support';
import { mainThreadCpuSeconds } from './cpu-time';
import { startSandboxProcess } from './sandbox-process';

const GOAL = 0.8;
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '15' },
    latency: { type: 'string', default: '0,10' },
  },
});
const count = Math.round(Number(values.count));
const concurrency = Math.round(Number(values.concurrency));
const rounds = Math.round(Number(values.rounds));
const latencies = values.latency.split(',').map((v) => Math.round(Number(v)));
if (latencies.some((l) => !Number.isFinite(l) || l < 0))
  throw new Error('--latency takes ms values');
for (const [flag, n] of Object.entries({ count, concurrency, rounds })) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} takes a positive number`);
}

const protocol = (sourceId: string): ProtocolRequest => protocolFor(sourceId);

/** The baseline: `requests` sent by `concurrency` workers, each awaiting createOrder in turn. */
async function bareLoop(client: ApiClient, requests: CreateOrderRequest[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) await client.createOrder(requests[next++]!);
    }),
  );
  return performance.now() - started;
}

/** `count` new local protocols (made before the measured run). */
const makeProtocols = (store: LocalStore, tag: string): string[] =>
  store.transaction(() =>
    Array.from(
      { length: count },
      (_, i) => store.protocols.createDraft(protocol(`${tag}-${i}`)).localId,
    ),
  );

async function bulkRun(
  submitter: BulkSubmitter,
  ids: string[],
  round: string,
): Promise<{ wallMs: number; freezeMs: number }> {
  const started = performance.now();
  const batchId = submitter.submit(ids, { concurrency });
  const freezeMs = performance.now() - started;
  const final = await submitter.settled(batchId);
  const wallMs = performance.now() - started;
  if (final.state !== 'done' || final.created !== count) {
    throw new Error(`bulk round ${round} ended ${JSON.stringify(final)}`);
  }
  return { wallMs, freezeMs };
}

const perItem = (seconds: number) => ((seconds * 1000) / count).toFixed(2);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  /**
   * CPU seconds from now until stop(): this process (every thread: the event loop, V8's GC and
   * compiler threads, the store's worker), its main thread alone, and the sandbox child.
   */
  const cpu = () => {
    const all = process.cpuUsage();
    const thread = mainThreadCpuSeconds() ?? 0;
    const server = sandbox.cpuSeconds() ?? 0;
    return {
      stop: () => {
        const d = process.cpuUsage(all);
        return {
          main: (d.user + d.system) / 1e6,
          thread: (mainThreadCpuSeconds() ?? 0) - thread,
          server: (sandbox.cpuSeconds() ?? 0) - server,
        };
      },
    };
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-bulk-'));
  const store = createLocalStore(path.join(dir, 'store.db'));
  try {
    const tokens = new TokenManager({
      tokenUrl: `${sandbox.origin}/oauth2/token`,
      clientId: sandbox.clientId,
      clientSecret: async () => sandbox.clientSecret,
    });
    const client = createApiClient({ baseUrl: sandbox.baseUrl, tokens });
    const submitter = new BulkSubmitter({ store, client, bus: new CoreEventBus() });
    // Warm-up of both paths, so that every measured round compares steady states (JIT, SQLite
    // caches, the token): a bare loop of 500 creates and a batch of 500 protocols.
    await bareLoop(
      client,
      Array.from({ length: 500 }, (_, i) => protocol(`warm-${i}`) as CreateOrderRequest),
    );
    const warmIds = store.transaction(() =>
      Array.from(
        { length: 500 },
        (_, i) => store.protocols.createDraft(protocol(`warm-bulk-${i}`)).localId,
      ),
    );
    const warmBatch = submitter.submit(warmIds, { concurrency });
    if ((await submitter.settled(warmBatch)).state !== 'done')
      throw new Error('the warm-up batch did not finish');

    console.log(
      `Bulk submission of ${count} protocols at concurrency ${concurrency}, ${rounds} round(s) per latency`,
    );
    console.log(
      `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}`,
    );
    const token = await tokens.getToken();
    const summary: string[] = [];
    for (const latencyMs of latencies) {
      const faults = await fetch(`${sandbox.origin}/_sandbox/faults`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs, match: { method: 'POST', path: '/v1/orders' } }),
      });
      if (!faults.ok) throw new Error(`setting the latency failed: ${faults.status}`);
      console.log(`-- latency ${latencyMs} ms per create`);
      const ratios: number[] = [];
      const perItemCpu = {
        bareThread: [] as number[],
        bulkThread: [] as number[],
        bareAll: [] as number[],
        bulkAll: [] as number[],
      };
      // Round 0 is run exactly like the others and not counted: the first timed bare loop of a
      // latency was about twice as slow on both sides even after the warm-up, and always first.
      for (let round = 0; round <= rounds; round++) {
        const tag = `l${latencyMs}-r${round}`;
        const requests = Array.from(
          { length: count },
          (_, i) => protocol(`bare-${tag}-${i}`) as CreateOrderRequest,
        );
        const ids = makeProtocols(store, `bulk-${tag}`);
        let bare = 0;
        let bulk = { wallMs: 0, freezeMs: 0 };
        let bareCpu = { main: 0, thread: 0, server: 0 };
        let bulkCpu = { main: 0, thread: 0, server: 0 };
        // Each timed run starts with the WAL checkpointed (untimed), so that neither run carries
        // the checkpoint work of what came before it (the protocols made just now, or the other
        // run): with the store's background checkpoints it would otherwise land in the next run.
        const settleWal = () => store.db.pragma('wal_checkpoint(TRUNCATE)');
        const runBare = async () => {
          settleWal();
          const c = cpu();
          bare = await bareLoop(client, requests);
          bareCpu = c.stop();
        };
        const runBulk = async () => {
          settleWal();
          const c = cpu();
          bulk = await bulkRun(submitter, ids, tag);
          bulkCpu = c.stop();
        };
        // Alternate which goes first, so that drift (the server warming up, other load) evens out.
        if (round % 2 === 1) {
          await runBare();
          await runBulk();
        } else {
          await runBulk();
          await runBare();
        }
        const ratio = bare / bulk.wallMs;
        if (round > 0) {
          ratios.push(ratio);
          perItemCpu.bareThread.push(bareCpu.thread);
          perItemCpu.bulkThread.push(bulkCpu.thread);
          perItemCpu.bareAll.push(bareCpu.main);
          perItemCpu.bulkAll.push(bulkCpu.main);
        }
        console.log(
          `${round === 0 ? 'round 0 (not counted)' : `round ${round}`}: bare loop ${fmt(bare)} (${Math.round((count / bare) * 1000)}/s), ` +
            `BulkSubmitter ${fmt(bulk.wallMs)} (${Math.round((count / bulk.wallMs) * 1000)}/s, ` +
            `of which freezing the batch ${bulk.freezeMs.toFixed(0)} ms): throughput bulk/bare ${ratio.toFixed(2)}; ` +
            `CPU ms per item in this process ${perItem(bareCpu.main)} bare / ${perItem(bulkCpu.main)} bulk ` +
            `(main thread ${perItem(bareCpu.thread)} / ${perItem(bulkCpu.thread)}), ` +
            `in the sandbox ${perItem(bareCpu.server)} / ${perItem(bulkCpu.server)}`,
        );
      }
      const m = median(ratios);
      summary.push(
        `latency ${latencyMs} ms: median throughput bulk/bare ${m.toFixed(2)} (goal >= ${GOAL}): ${m >= GOAL ? 'PASS' : 'BELOW GOAL'}; ` +
          `median CPU ms per item, bare / bulk: main thread ${perItem(median(perItemCpu.bareThread))} / ${perItem(median(perItemCpu.bulkThread))}, ` +
          `whole process ${perItem(median(perItemCpu.bareAll))} / ${perItem(median(perItemCpu.bulkAll))}`,
      );
    }
    for (const line of summary) console.log(line);
    await submitter.stop();
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
