/**
 * `npm run bench`: every bench of bench/goals.ts, each in its own process with its npm script's
 * command, then docs/PERFORMANCE.md from their figures, the machine and its load. A failed bench
 * does not stop the others; the exit code is then 1. --only takes bench files or npm scripts;
 * --timeout is per bench, in minutes (15); `--rerender FILE` rewrites the report from a kept run.
 *
 *   npm run bench -- --only search,renderer:editor     # a subset; the report goes to a temp file
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { BENCHES, FIGURES } from './goals';
import { cpuSnapshot, loadAverage, machineInfo, otherWorkShare, ProcessTreeCpu } from './machine';
import {
  failureLine,
  renderPerformanceReport,
  verdictFor,
  type BenchRun,
  type ReportInput,
} from './performance-report';
import { FigureRecordSchema, readFigures, RESULTS_ENV, type FigureRecord } from './report';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_OUT = path.join(ROOT, 'docs', 'PERFORMANCE.md');
const KEEP_OUTPUT = 16 * 1024;

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    out: { type: 'string' },
    timeout: { type: 'string', default: '15' },
    rerender: { type: 'string' },
  },
});
const timeoutMs = Number(values.timeout) * 60_000;
if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
  throw new Error('--timeout takes a number of minutes');

const wanted = values.only?.split(',').map((s) => s.trim());
/** A bench by its file (with or without .ts), its npm script, or the script without `bench:`. */
const names = (b: (typeof BENCHES)[number]) => [
  b.file,
  b.file.replace(/\.ts$/, ''),
  b.script,
  b.script.replace(/^bench:/, ''),
];
const selected = BENCHES.filter((b) => !wanted || names(b).some((n) => wanted.includes(n)));
for (const w of wanted ?? []) {
  if (!BENCHES.some((b) => names(b).includes(w))) {
    console.error(`--only: no bench "${w}" (${BENCHES.map((b) => b.file).join(', ')})`);
    process.exit(2);
  }
}
const LAST_RUN = path.join(os.tmpdir(), 'order-desk-bench-last-run.json');

const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const isBuild = (step: string) => /^npm run (-s )?build:/.test(step);
const steps = (script: string) => (scripts[script] ?? '').split(' && ').map((s) => s.trim());

/** A shell command in its own process group, its output passed through and its tail kept. */
function run(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; signal: string | null; timedOut: boolean; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const keep = (chunk: Buffer, to: NodeJS.WriteStream) => {
      to.write(chunk);
      tail = (tail + chunk.toString('utf8')).slice(-KEEP_OUTPUT);
    };
    child.stdout.on('data', (c: Buffer) => keep(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => keep(c, process.stderr));
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 15_000).unref();
    }, timeoutMs);
    const onInterrupt = () => {
      killGroup('SIGTERM');
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', onInterrupt);
      killGroup('SIGKILL'); // anything the bench left behind in its group (a browser, a sandbox)
      resolve({ code, signal, timedOut, tail });
    });
  });
}

const env = (results: string): NodeJS.ProcessEnv => ({
  ...process.env,
  [RESULTS_ENV]: results,
  PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
});

const Load = z.tuple([z.number(), z.number(), z.number()]);
/** What one run measured: the report's input, as kept in LAST_RUN. */
const RunSchema = z.object({
  generatedAt: z.iso.datetime(),
  machine: z.object({
    cpuModel: z.string(),
    cpuCount: z.number(),
    memoryBytes: z.number(),
    os: z.string(),
    node: z.string(),
    chromium: z.string().nullable(),
  }),
  loadStart: Load,
  loadEnd: Load,
  otherShare: z.number().nullable(),
  totalSeconds: z.number(),
  runs: z.array(
    z.object({
      file: z.string(),
      command: z.string(),
      status: z.enum(['passed', 'failed', 'not run']),
      reason: z.string().optional(),
      seconds: z.number().optional(),
      loadStart: Load.optional(),
      loadEnd: Load.optional(),
      otherShare: z.number().nullable().optional(),
    }),
  ),
  figures: z.array(FigureRecordSchema),
  invalid: z.array(z.string()),
});
type Run = z.infer<typeof RunSchema>;

const banner = (text: string) => console.log(`\n${'='.repeat(100)}\n${text}\n${'='.repeat(100)}`);

/** Runs the selected benches (the renderer build first, once) and collects what they recorded. */
async function measureAll(): Promise<Run> {
  const machine = machineInfo();
  const loadStart = loadAverage();
  const tree = new ProcessTreeCpu();
  const cpuStart = cpuSnapshot(tree);
  const startedAt = performance.now();
  const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-results-'));
  const runs: BenchRun[] = [];
  const figures: FigureRecord[] = [];
  const invalid: string[] = [];
  try {
    // The renderer build the renderer benches' scripts start with, once for all of them.
    const builds = [...new Set(selected.flatMap((b) => steps(b.script).filter(isBuild)))];
    let buildFailure: string | null = null;
    if (builds.length > 0) {
      banner(`build, once for every renderer bench: ${builds.join(' && ')}`);
      const build = await run(builds.join(' && '), env(path.join(resultsDir, 'build.jsonl')));
      if (build.code !== 0)
        buildFailure = `the renderer build failed (${build.code ?? build.signal}): ${failureLine(build.tail)}`;
    }

    for (const [i, bench] of selected.entries()) {
      const all = steps(bench.script);
      const command = all.filter((s) => !isBuild(s)).join(' && ');
      if (!scripts[bench.script]) {
        runs.push({
          file: bench.file,
          command: `npm run ${bench.script}`,
          status: 'failed',
          reason: 'package.json has no such script',
        });
        continue;
      }
      if (buildFailure && all.some(isBuild)) {
        runs.push({ file: bench.file, command, status: 'failed', reason: buildFailure });
        continue;
      }
      banner(`bench ${i + 1}/${selected.length}: ${bench.file} (${command})`);
      const results = path.join(resultsDir, `${bench.file}.jsonl`);
      const before = { load: loadAverage(), cpu: cpuSnapshot(tree), at: performance.now() };
      const result = await run(command, env(results));
      const seconds = (performance.now() - before.at) / 1000;
      const read = readFigures(results);
      figures.push(...read.figures);
      invalid.push(...read.invalid);
      const failed = result.code !== 0 || result.timedOut;
      const how = result.timedOut
        ? `timed out after ${values.timeout} min`
        : result.code !== null
          ? `exit code ${result.code}`
          : `killed by ${result.signal}`;
      runs.push({
        file: bench.file,
        command,
        status: failed ? 'failed' : 'passed',
        ...(failed ? { reason: `${how}: ${failureLine(result.tail)}` } : {}),
        seconds,
        loadStart: before.load,
        loadEnd: loadAverage(),
        otherShare: otherWorkShare(before.cpu, cpuSnapshot(tree), machine.cpuCount),
      });
      console.log(`\n(${bench.file}: ${failed ? 'FAILED' : 'done'} in ${seconds.toFixed(0)} s)`);
    }
  } finally {
    rmSync(resultsDir, { recursive: true, force: true });
  }
  const cpuEnd = cpuSnapshot(tree);
  tree.stop();
  for (const bench of BENCHES) {
    if (!runs.some((r) => r.file === bench.file))
      runs.push({
        file: bench.file,
        command: `npm run ${bench.script}`,
        status: 'not run',
        reason: 'left out by --only',
      });
  }
  return {
    generatedAt: new Date().toISOString(),
    machine,
    loadStart,
    loadEnd: loadAverage(),
    otherShare: otherWorkShare(cpuStart, cpuEnd, machine.cpuCount),
    totalSeconds: (performance.now() - startedAt) / 1000,
    runs,
    figures,
    invalid,
  };
}

let measured: Run;
if (values.rerender) {
  measured = RunSchema.parse(JSON.parse(readFileSync(values.rerender, 'utf8')));
} else {
  measured = await measureAll();
  writeFileSync(LAST_RUN, JSON.stringify(measured, null, 2));
}
const input: ReportInput = { ...measured, generatedAt: new Date(measured.generatedAt) };
// A subset makes a partial report: it goes elsewhere unless asked, so the page of record stays.
const partial = measured.runs.some((r) => r.status === 'not run');
const out = path.resolve(
  values.out ?? (partial ? path.join(os.tmpdir(), 'order-desk-PERFORMANCE.md') : DEFAULT_OUT),
);
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, renderPerformanceReport(input));

banner(
  `report: ${path.relative(process.cwd(), out) || out}${values.rerender ? '' : ` (what it was made from: ${LAST_RUN})`}`,
);
for (const spec of FIGURES.filter((f) => f.goal)) {
  const v = verdictFor(spec, measured.figures, measured.runs);
  console.log(
    `  ${v.kind.padEnd(12)} ${spec.id}${v.kind === 'not measured' ? ` (${v.reason})` : ''}`,
  );
}
const failed = measured.runs.filter((r) => r.status === 'failed');
for (const r of failed) console.log(`  FAILED: ${r.file}: ${r.reason}`);
if (failed.length > 0) process.exitCode = 1;
