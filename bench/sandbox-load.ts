/**
 * Load benchmark of the sandbox service: throughput and latency of create order and list orders
 * against the bare /healthz route of the same server, reported as ratios (bench/README.md).
 *
 *   npx tsx bench/sandbox-load.ts [--duration 10] [--connections 10] [--warmup 2]
 *                                 [--only healthz,create,list] [--cpu-prof]
 */
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { summariseCpuProfile } from './cpu-profile';
import { goalOf } from './goals';
import { recordFigure } from './report';
import { startSandboxProcess, type SandboxProcess } from './sandbox-process';

const GOAL = goalOf('sandbox.create-vs-healthz').target;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    only: { type: 'string', default: 'healthz,create,list' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});
const positive = (flag: string, text: string): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`--${flag} takes a positive number, got "${text}"`);
  return n;
};
const duration = positive('duration', values.duration);
const connections = Math.round(positive('connections', values.connections));
const warmup = positive('warmup', values.warmup);
const TARGET_KEYS = ['healthz', 'create', 'list'] as const;
const only = values.only.split(',').map((s) => s.trim());
for (const key of only) {
  if (!(TARGET_KEYS as readonly string[]).includes(key))
    throw new Error(`--only takes ${TARGET_KEYS.join(',')}, got "${key}"`);
}

interface Target {
  key: (typeof TARGET_KEYS)[number];
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Row {
  key: Target['key'];
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** Server CPU (user + system) per request of the measured run, in µs; null where unknown. */
  cpuUs: number | null;
}

class BenchFailure extends Error {}

async function json<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  if (!res.ok) throw new BenchFailure(`${what}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

async function fetchToken(sb: SandboxProcess): Promise<string> {
  const res = await fetch(`${sb.origin}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sb.clientId,
      client_secret: sb.clientSecret,
    }),
  });
  return (await json<{ access_token: string }>(res, 'token request')).access_token;
}

interface CatalogProduct {
  id: number;
  external: boolean;
  status: string;
  packDescription: string;
}

/** A valid create-order body built from the live catalog: one pack product and one external one. */
async function orderBody(sb: SandboxProcess, auth: Record<string, string>): Promise<string> {
  const { products } = await json<{ products: CatalogProduct[] }>(
    await fetch(`${sb.baseUrl}/products?limit=100&status=ACTIVE`, { headers: auth }),
    'list products',
  );
  const pack = products.find((p) => !p.external);
  const external = products.find((p) => p.external);
  if (!pack || !external)
    throw new BenchFailure('the catalog has no ACTIVE pack and external product to order');
  return JSON.stringify({
    customer: {
      sourceId: 'bench-0001',
      firstName: 'Load',
      lastName: 'Test',
      email: 'load@example.com',
      phone: '+1 503 555 0100',
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
    },
    daysSupply: 30,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: pack.id,
        quantity: 2,
        packDescription: pack.packDescription,
        administration: { morning: 1, afternoon: 0, evening: 1, sleep: 0 },
      },
      { productId: external.id, quantity: 1, administration: null },
    ],
  });
}

function run(sb: SandboxProcess, target: Target, seconds: number, auth: Record<string, string>) {
  return autocannon({
    url: `${sb.origin}${target.path}`,
    method: target.method,
    connections,
    duration: seconds,
    headers: target.body ? { ...auth, 'content-type': 'application/json' } : auth,
    ...(target.body ? { body: target.body } : {}),
  });
}

async function measure(
  sb: SandboxProcess,
  target: Target,
  auth: Record<string, string>,
): Promise<Row> {
  const warm = await run(sb, target, warmup, auth);
  const cpuBefore = sb.cpuSeconds();
  const result = await run(sb, target, duration, auth);
  const cpuAfter = sb.cpuSeconds();
  if (sb.died)
    throw new BenchFailure(`the sandbox died during ${target.name}:\n${sb.stderrTail()}`);
  return {
    key: target.key,
    name: target.name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + warm.non2xx,
    errors: result.errors + result.timeouts + warm.errors + warm.timeouts,
    requests: result.requests.total,
    cpuUs:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
  };
}

function printTable(rows: Row[]): void {
  const header = [
    'route',
    'req/s (mean)',
    'p50 ms',
    'p99 ms',
    'requests',
    'non-2xx',
    'errors',
    'server CPU µs/req',
  ];
  const cells = rows.map((r) => [
    r.name,
    r.rps.toFixed(0),
    r.p50.toFixed(2),
    r.p99.toFixed(2),
    String(r.requests),
    String(r.non2xx),
    String(r.errors),
    r.cpuUs === null ? 'n/a' : r.cpuUs.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

function printMachine(): void {
  const cpus = os.cpus();
  console.log(
    `machine: ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.arch()}`,
  );
  console.log(`node ${process.version}; autocannon and the sandbox child share these cores`);
  console.log(`runs: ${duration} s each after ${warmup} s warm-up, ${connections} connections\n`);
}

function printProfile(dir: string): void {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    console.log(`\nno CPU profile was written to ${dir}`);
    return;
  }
  const { functions, modules, busyMs, idleMs } = summariseCpuProfile(path.join(dir, file));
  const show = (title: string, list: { name: string; ms: number; share: number }[]) => {
    console.log(`\n${title}`);
    for (const e of list)
      console.log(
        `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
      );
  };
  console.log(
    `\nCPU profile of the sandbox child: ${path.join(dir, file)} (busy ${busyMs.toFixed(0)} ms, idle ${idleMs.toFixed(0)} ms)`,
  );
  show('self time by module:', modules);
  show('self time by function:', functions);
}

async function main(): Promise<void> {
  printMachine();
  const profileDir = values['cpu-prof']
    ? mkdtempSync(path.join(os.tmpdir(), 'sandbox-prof-'))
    : null;
  const sb = await startSandboxProcess(
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  let failure: unknown = null;
  const rows: Row[] = [];
  try {
    const auth = { authorization: `Bearer ${await fetchToken(sb)}` };
    const body = await orderBody(sb, auth);
    // One create up front: a body the service refuses would make the whole run a 422 benchmark.
    await json(
      await fetch(`${sb.baseUrl}/orders`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      }),
      'create order',
    );
    const targets: Target[] = [
      { key: 'healthz', name: 'GET /healthz', method: 'GET', path: '/healthz' },
      { key: 'create', name: 'POST /v1/orders', method: 'POST', path: '/v1/orders', body },
      { key: 'list', name: 'GET /v1/orders?limit=10', method: 'GET', path: '/v1/orders?limit=10' },
    ];
    for (const target of targets.filter((t) => only.includes(t.key)))
      rows.push(await measure(sb, target, auth));
  } catch (error) {
    failure = error;
  } finally {
    const code = await sb.stop();
    if (!failure && code !== 0)
      failure = new BenchFailure(`the sandbox exited with code ${code}:\n${sb.stderrTail()}`);
  }
  if (rows.length > 0) printTable(rows);
  const [health, create, list] = TARGET_KEYS.map((key) => rows.find((r) => r.key === key));
  const size = `${duration} s runs after ${warmup} s warm-up, ${connections} connections`;
  const rps = (label: string, r: Row) => ({ label, value: r.rps, unit: 'req/s' });
  if (health && create) {
    const ratio = create.rps / health.rps;
    const verdict = ratio >= GOAL ? 'PASS' : 'BELOW GOAL';
    console.log(
      `\ncreate order / healthz throughput: ${ratio.toFixed(3)}  (goal >= ${GOAL.toFixed(2)}: ${verdict})`,
    );
    recordFigure({
      id: 'sandbox.create-vs-healthz',
      value: ratio,
      parts: [rps('create', create), rps('healthz', health)],
      detail: size,
    });
  }
  if (create) recordFigure({ id: 'sandbox.create-p99', value: create.p99, detail: size });
  if (health && list) {
    console.log(`list orders  / healthz throughput: ${(list.rps / health.rps).toFixed(3)}`);
    recordFigure({
      id: 'sandbox.list-vs-healthz',
      value: list.rps / health.rps,
      parts: [rps('list', list), rps('healthz', health)],
      detail: size,
    });
  }
  // Server CPU per request hardly moves with other load on the machine, unlike throughput.
  for (const r of [create, list]) {
    if (health?.cpuUs && r?.cpuUs) {
      console.log(
        `${r.name}: ${(r.cpuUs / health.cpuUs).toFixed(1)} x the server CPU per request of the bare route`,
      );
    }
  }
  if (health?.cpuUs && create?.cpuUs) {
    recordFigure({
      id: 'sandbox.create-cpu-vs-healthz',
      value: create.cpuUs / health.cpuUs,
      parts: [
        { label: 'create', value: create.cpuUs, unit: 'µs' },
        { label: 'healthz', value: health.cpuUs, unit: 'µs' },
      ],
      detail: size,
    });
  }
  if (profileDir) printProfile(profileDir);
  const bad = rows.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (!failure && bad.length > 0) {
    failure = new BenchFailure(
      `non-2xx answers or connection errors: ${bad.map((r) => `${r.name} (${r.non2xx} non-2xx, ${r.errors} errors)`).join(', ')}`,
    );
  }
  if (failure) {
    console.error(
      `\nBENCHMARK FAILED: ${failure instanceof Error ? failure.message : String(failure)}`,
    );
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(
    `\nBENCHMARK FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(1);
});
