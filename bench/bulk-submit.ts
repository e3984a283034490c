/**
 * Bulk submission against a bare loop of the same creates at the same concurrency, on the
 * sandbox in a child process, one pass per --latency value (ms injected before each order
 * request); this thread's event-loop delay too, since it also serves the window. --store plain:
 * the same on a store unencrypted. Goals and method: bench/README.md, "Bulk submission".
 *
 *   npx tsx bench/bulk-submit.ts [--count 1000] [--concurrency 8] [--rounds 3] [--latency 50,10,0]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createApiClient, type ApiClient } from '@main/api/client';
import { TokenManager } from '@main/connections/token-manager';
import { CoreEventBus } from '@main/core-event-bus';
import { duplicateWindowMs } from '@main/bulk/duplicate-orders';
import { READ_OVERLAP_MS } from '@main/orders/recent-orders';
import type { LocalStore } from '@main/stores';
import type { CreateOrderRequest } from '@shared/api';
import { protocolFor } from '@test/support/bulk';
import { startBulk, type BulkStack } from '@test/support/bulk-stack';
import { benchStore, type StoreMode } from './bench-stores';
import { mainThreadCpuSeconds } from './cpu-time';
import { goalOf } from './goals';
import { recordFigure } from './report';
import { startSandboxProcess } from './sandbox-process';
import { median } from './stats';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    latency: { type: 'string', default: '50,10,0' },
    /** The app's store is encrypted; 'plain' runs the same bench on it unencrypted, to compare. */
    store: { type: 'string', default: 'encrypted' },
  },
});
if (values.store !== 'encrypted' && values.store !== 'plain')
  throw new Error('--store takes encrypted or plain');
const storeMode: StoreMode = values.store;
const count = Math.round(Number(values.count));
const concurrency = Math.round(Number(values.concurrency));
const rounds = Math.round(Number(values.rounds));
const latencies = values.latency.split(',').map((v) => Math.round(Number(v)));
if (latencies.some((l) => !Number.isFinite(l) || l < 0))
  throw new Error('--latency takes ms values');
for (const [flag, n] of Object.entries({ count, concurrency, rounds })) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} takes a positive number`);
}

/** The goals per latency: the least bulk/bare ratio, and the longest batch against its limit. */
const RATIO_GOALS: Record<number, number> = {
  50: goalOf('bulk.ratio-50ms').target,
  10: goalOf('bulk.ratio-10ms').target,
};
const WALL_GOAL = goalOf('bulk.batch-vs-limit-50ms').target;
const LOOP_DELAY_GOALS = {
  p99: goalOf('bulk.loop-delay-p99').target,
  max: goalOf('bulk.loop-delay-max').target,
};
/** The figure of the report (bench/goals.ts) for the median ratio at each latency that has one. */
const RATIO_FIGURES = {
  50: 'bulk.ratio-50ms',
  10: 'bulk.ratio-10ms',
  0: 'bulk.ratio-loopback',
} as const;

/** The baseline: the requests sent by `concurrency` workers, each awaiting createOrder in turn. */
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

/** `n` new local protocols (made before the measured run). */
const makeProtocols = (store: LocalStore, tag: string, n = count): string[] =>
  store.transaction(() =>
    Array.from(
      { length: n },
      (_, i) => store.protocols.createDraft(protocolFor(`${tag}-${i}`)).localId,
    ),
  );

/** The report's figures (bench/report.ts) of one latency's rounds. */
function record(
  latencyMs: number,
  r: {
    ratios: number[];
    bares: number[];
    walls: number[];
    p99: number;
    max: number;
    checkReads: number[];
  },
): void {
  const size = `${count.toLocaleString('en')} protocols, concurrency ${concurrency}, ${rounds} round(s)`;
  const detail = `${size}; round ratios ${r.ratios.map((x) => x.toFixed(3)).join(', ')}`;
  const id = RATIO_FIGURES[latencyMs as keyof typeof RATIO_FIGURES];
  if (id) {
    // The median round (an odd number of rounds: the middle one), its two times measured together.
    const round = r.ratios.indexOf(median(r.ratios));
    recordFigure({
      id,
      value: median(r.ratios),
      parts: [
        { label: 'bare', value: r.bares[round]! / 1000, unit: 's' },
        { label: 'bulk', value: r.walls[round]! / 1000, unit: 's' },
      ],
      detail,
    });
  }
  if (latencyMs === 50) {
    recordFigure({
      id: 'bulk.duplicate-check-requests',
      value: (median(r.checkReads) * 1000) / count,
      detail: `${size}; list requests per round ${r.checkReads.join(', ')}`,
    });
    const limit = (count * latencyMs) / concurrency;
    recordFigure({
      id: 'bulk.batch-vs-limit-50ms',
      value: median(r.walls) / limit,
      parts: [
        { label: 'batch', value: median(r.walls) / 1000, unit: 's' },
        { label: 'limit', value: limit / 1000, unit: 's' },
      ],
      detail: size,
    });
  }
  if (latencyMs === 0) {
    recordFigure({ id: 'bulk.loop-delay-p99', value: r.p99, detail: size });
    recordFigure({ id: 'bulk.loop-delay-max', value: r.max, detail: size });
  }
}

/** One batch, timed from submit() until it is done, with the event-loop delay meanwhile. */
async function bulkRun(bulk: BulkStack, ids: string[], round: string) {
  // The review's read of the server's recent orders, as batches.review makes before a submit, a
  // moment after the bare loop (a user reviewing; each read re-reads what was made in the
  // READ_OVERLAP_MS before the last one began): the checks then read what is new since.
  await new Promise((resolve) => setTimeout(resolve, READ_OVERLAP_MS + 500));
  await bulk.recent.read(Date.now() - duplicateWindowMs(30));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const reads = bulk.recent.requests;
  const started = performance.now();
  const batchId = bulk.submitter.submit(ids, { concurrency });
  const freezeMs = performance.now() - started;
  const final = await bulk.submitter.settled(batchId);
  const wallMs = performance.now() - started;
  delay.disable();
  if (final.state !== 'done' || final.created !== ids.length)
    throw new Error(`bulk round ${round} ended ${JSON.stringify(final)}`);
  return {
    wallMs,
    freezeMs,
    p99: delay.percentile(99) / 1e6,
    max: delay.max / 1e6,
    checkReads: bulk.recent.requests - reads,
  };
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const perItem = (seconds: number) => ((seconds * 1000) / count).toFixed(2);
const verdict = (ok: boolean) => (ok ? 'PASS' : 'BELOW GOAL');

async function main(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-bulk-'));
  const store = benchStore(path.join(dir, 'store.db'), storeMode); // encrypted, as the app's
  let bulk: BulkStack | null = null;
  try {
    const tokens = new TokenManager({
      tokenUrl: `${sandbox.origin}/oauth2/token`,
      clientId: sandbox.clientId,
      clientSecret: async () => sandbox.clientSecret,
    });
    const client = createApiClient({ baseUrl: sandbox.baseUrl, tokens });
    bulk = startBulk({ store, client, bus: new CoreEventBus() });
    // Warm-up of both paths (JIT, SQLite caches, the token).
    await bareLoop(
      client,
      Array.from({ length: 300 }, (_, i) => protocolFor(`warm-${i}`) as CreateOrderRequest),
    );
    await bulkRun(bulk, makeProtocols(store, 'warm-bulk', 300), 'warm-up');

    console.log(
      `Bulk submission of ${count} protocols at concurrency ${concurrency}, ${rounds} round(s) per latency, the store ${storeMode}`,
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
        body: JSON.stringify({ latencyMs, match: { path: '/v1/orders' } }),
      });
      if (!faults.ok) throw new Error(`setting the latency failed: ${faults.status}`);
      console.log(`-- latency ${latencyMs} ms per create`);
      const ratios: number[] = [];
      const bares: number[] = [];
      const walls: number[] = [];
      const p99s: number[] = [];
      const maxes: number[] = [];
      const checkReads: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const tag = `l${latencyMs}-r${round}`;
        const requests = Array.from(
          { length: count },
          (_, i) => protocolFor(`bare-${tag}-${i}`) as CreateOrderRequest,
        );
        const ids = makeProtocols(store, `bulk-${tag}`);
        store.db.pragma('wal_checkpoint(TRUNCATE)'); // neither run carries the other's WAL
        const cpu0 = mainThreadCpuSeconds() ?? 0;
        // Alternate which goes first, so that drift (the server warming up) evens out.
        let bare = 0;
        let run = { wallMs: 0, freezeMs: 0, p99: 0, max: 0, checkReads: 0 };
        let bulkCpu = 0;
        const timeBulk = async () => {
          const c = mainThreadCpuSeconds() ?? 0;
          run = await bulkRun(bulk!, ids, tag);
          bulkCpu = (mainThreadCpuSeconds() ?? 0) - c;
        };
        if (round % 2 === 1) {
          bare = await bareLoop(client, requests);
          await timeBulk();
        } else {
          await timeBulk();
          bare = await bareLoop(client, requests);
        }
        const bareCpu = (mainThreadCpuSeconds() ?? 0) - cpu0 - bulkCpu;
        ratios.push(bare / run.wallMs);
        bares.push(bare);
        walls.push(run.wallMs);
        p99s.push(run.p99);
        maxes.push(run.max);
        checkReads.push(run.checkReads);
        console.log(
          `round ${round}: bare ${fmt(bare)}, bulk ${fmt(run.wallMs)} (freezing ${run.freezeMs.toFixed(0)} ms): ` +
            `bulk/bare ${(bare / run.wallMs).toFixed(3)}; event-loop delay during the batch p99 ${run.p99.toFixed(1)} ms, ` +
            `max ${run.max.toFixed(1)} ms; main-thread CPU ms per item bare ${perItem(bareCpu)} / bulk ${perItem(bulkCpu)}; ` +
            `duplicate-check list requests ${run.checkReads}`,
        );
      }
      const ratio = median(ratios);
      const wall = median(walls);
      const limit = (count * latencyMs) / concurrency;
      const parts = [`latency ${latencyMs} ms: median bulk/bare ${ratio.toFixed(3)}`];
      const goal = RATIO_GOALS[latencyMs];
      if (goal !== undefined) parts.push(`(goal >= ${goal}: ${verdict(ratio >= goal)})`);
      else parts.push('(reported, no goal)');
      if (latencyMs > 0) {
        const ofLimit = wall / limit;
        parts.push(
          `; median batch ${fmt(wall)} = ${ofLimit.toFixed(3)}x the limit ${fmt(limit)}` +
            (latencyMs === 50 ? ` (goal <= ${WALL_GOAL}x: ${verdict(ofLimit <= WALL_GOAL)})` : ''),
        );
      }
      const p99 = Math.max(...p99s);
      const max = Math.max(...maxes);
      parts.push(
        `; event-loop delay worst p99 ${p99.toFixed(1)} ms, worst max ${max.toFixed(1)} ms`,
      );
      if (latencyMs === 0) {
        const ok = p99 < LOOP_DELAY_GOALS.p99 && max < LOOP_DELAY_GOALS.max;
        parts.push(
          ` (goal p99 < ${LOOP_DELAY_GOALS.p99} ms, max < ${LOOP_DELAY_GOALS.max} ms: ${verdict(ok)})`,
        );
      }
      summary.push(parts.join(' '));
      record(latencyMs, { ratios, bares, walls, p99, max, checkReads });
    }
    for (const line of summary) console.log(line);
  } finally {
    await bulk?.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
