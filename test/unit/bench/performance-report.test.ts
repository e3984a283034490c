import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BENCHES, FIGURES, goalMet, type BenchSpec, type FigureSpec } from '@bench/goals';
import type { MachineInfo } from '@bench/machine';
import {
  failureLine,
  renderPerformanceReport,
  verdictFor,
  type BenchRun,
  type ReportInput,
} from '@bench/performance-report';
import { readFigures, recordFigure, RESULTS_ENV, type FigureRecord } from '@bench/report';
import { repoFile } from '@test/support/repo-files';

const benches: BenchSpec[] = [
  { file: 'a.ts', script: 'bench:a', title: 'Bench A' },
  { file: 'b.ts', script: 'bench:b', title: 'Bench B' },
];
const catalog: FigureSpec[] = [
  {
    id: 'a.ratio',
    bench: 'a.ts',
    title: 'A ratio',
    unit: '',
    digits: 3,
    goal: { op: '>=', target: 0.3 },
    bound: 'the machine',
  },
  {
    id: 'a.p95',
    bench: 'a.ts',
    title: 'A p95',
    unit: 'ms',
    digits: 1,
    goal: { op: '<', target: 5 },
    bound: 'CPU',
  },
  {
    id: 'a.count',
    bench: 'a.ts',
    title: 'A count',
    unit: 'requests',
    digits: 0,
    goal: null,
    bound: 'the budget',
  },
  {
    id: 'b.frame',
    bench: 'b.ts',
    title: 'B worst frame',
    unit: 'ms',
    digits: 1,
    goal: { op: '<=', target: 50 },
    bound: 'the renderer',
  },
];
const machine: MachineInfo = {
  cpuModel: 'Test CPU',
  cpuCount: 2,
  memoryBytes: 8 * 2 ** 30,
  os: 'Linux test',
  node: 'v20.0.0',
  chromium: 'Chromium 1.0',
};
const fig = (id: string, value: number, extra: Partial<FigureRecord> = {}): FigureRecord => ({
  id,
  value,
  recordedAt: '2026-11-25T00:00:00.000Z',
  ...extra,
});
const passed = (file: string): BenchRun => ({
  file,
  command: `tsx bench/${file}`,
  status: 'passed',
  seconds: 75,
  loadStart: [0.2, 0.3, 0.4],
  loadEnd: [1.9, 1.2, 0.6],
  otherShare: 0.02,
});
const input = (over: Partial<ReportInput>): ReportInput => ({
  generatedAt: new Date('2026-11-25T03:00:00Z'),
  machine,
  loadStart: [0.2, 0.3, 0.4],
  loadEnd: [1.9, 1.2, 0.6],
  otherShare: 0.02,
  totalSeconds: 600,
  runs: [passed('a.ts'), passed('b.ts')],
  figures: [],
  benches,
  catalog,
  ...over,
});
/** The table row of a figure's title. */
const row = (md: string, title: string) => md.split('\n').find((l) => l.includes(`| ${title} |`));

describe('the performance report', () => {
  it('computes met and not met from each goal, not from anything the bench printed', () => {
    const md = renderPerformanceReport(
      input({
        figures: [fig('a.ratio', 0.256), fig('a.p95', 1.7), fig('a.count', 12), fig('b.frame', 50)],
      }),
    );
    expect(row(md, 'A ratio')).toContain('**not met**');
    expect(row(md, 'A ratio')).toContain('≥ 0.3');
    expect(row(md, 'A p95')).toContain('**met**');
    expect(row(md, 'A p95')).toContain('**1.7 ms**');
    // "no frame over 50 ms": exactly 50 meets it.
    expect(row(md, 'B worst frame')).toContain('**met**');
    expect(md).toContain('**3 goals: 2 met, 1 not met, 0 not measured.**');
    expect(md).toContain('- Not met: A ratio, 0.256 against ≥ 0.3.');
    expect(renderPerformanceReport(input({ figures: [fig('a.count', 1)] }))).toContain(
      '**1 request**',
    );
    // A figure with no goal is listed with its value, and never counted as a goal.
    expect(row(md, 'A count')).toContain('**12 requests**');
    expect(row(md, 'A count')).not.toMatch(/met/);
  });

  it('keeps a goal whose bench crashed, as not measured with the reason', () => {
    const md = renderPerformanceReport(
      input({
        runs: [
          passed('a.ts'),
          { ...passed('b.ts'), status: 'failed', reason: 'exit code 1: Error: chromium crashed' },
        ],
        figures: [fig('a.ratio', 0.31), fig('a.p95', 1.2), fig('a.count', 3)],
      }),
    );
    expect(row(md, 'B worst frame')).toContain(
      'not measured: `b.ts` failed: exit code 1: Error: chromium crashed',
    );
    expect(md).toContain('**3 goals: 2 met, 0 not met, 1 not measured.**');
    expect(md).toContain('- Not measured: B worst frame.');
    expect(md).toContain(
      '| `b.ts` | `tsx bench/b.ts` | failed: exit code 1: Error: chromium crashed |',
    );
  });

  it('says when a bench ran but never recorded a figure, or was not run', () => {
    const records = [fig('a.ratio', 0.4)];
    const runs = [passed('a.ts')];
    expect(verdictFor(catalog[1]!, records, runs)).toEqual({
      kind: 'not measured',
      reason: '`a.ts` finished without recording it',
    });
    expect(verdictFor(catalog[3]!, records, runs)).toEqual({
      kind: 'not measured',
      reason: '`b.ts` was not run',
    });
  });

  it('uses the latest record of a figure, and shows a ratio with its two parts', () => {
    const md = renderPerformanceReport(
      input({
        figures: [
          fig('a.ratio', 0.2),
          fig('a.ratio', 0.312, {
            parts: [
              { label: 'create', value: 17215.4, unit: 'req/s' },
              { label: 'healthz', value: 55176.2, unit: 'req/s' },
            ],
            detail: '10 s runs | 10 connections',
          }),
        ],
      }),
    );
    const line = row(md, 'A ratio')!;
    expect(line).toContain('**0.312** (create 17,215 req/s / healthz 55,176 req/s, same run)');
    expect(line).toContain('10 s runs \\| 10 connections'); // a pipe cannot break the table
    expect(line).toContain('**met**');
  });

  it('states the machine, its load at both ends, and whether other work was running', () => {
    const quiet = renderPerformanceReport(input({}));
    expect(quiet).toContain('- CPU: 2 × Test CPU');
    expect(quiet).toContain('- Memory: 8.0 GiB');
    expect(quiet).toContain('- OS: Linux test');
    expect(quiet).toContain('- Node v20.0.0; Chromium 1.0');
    expect(quiet).toContain('0.20 / 0.30 / 0.40 at the start, 1.90 / 1.20 / 0.60 at the end');
    expect(quiet).toContain('**Quiet**');
    const busy = renderPerformanceReport(input({ loadStart: [9.5, 8, 6], otherShare: 0.6 }));
    expect(busy).toContain('**Not quiet**');
    expect(busy).toContain('9.50 on 2 CPUs');
    expect(busy).toContain('used 60% of the machine');
  });

  it('covers every goal of the project catalog, each against a bench it runs', () => {
    const md = renderPerformanceReport(input({ benches: undefined, catalog: undefined, runs: [] }));
    for (const spec of FIGURES.filter((f) => f.goal)) {
      expect(BENCHES.map((b) => b.file)).toContain(spec.bench);
      expect(row(md, spec.title), spec.id).toContain('not measured');
    }
    expect(new Set(FIGURES.map((f) => f.id)).size).toBe(FIGURES.length);
  });

  it('shows more decimals where the rounding would contradict the verdict', () => {
    const md = renderPerformanceReport(input({ figures: [fig('a.ratio', 0.29996)] }));
    expect(row(md, 'A ratio')).toContain('**0.29996**');
    expect(row(md, 'A ratio')).toContain('**not met**');
    const plain = renderPerformanceReport(input({ figures: [fig('a.ratio', 0.2904)] }));
    expect(row(plain, 'A ratio')).toContain('**0.290**');
  });

  it('compares with each operator as written', () => {
    expect(goalMet(0.3, { op: '>=', target: 0.3 })).toBe(true);
    expect(goalMet(0.3, { op: '>', target: 0.3 })).toBe(false);
    expect(goalMet(5, { op: '<', target: 5 })).toBe(false);
    expect(goalMet(0, { op: '<=', target: 0 })).toBe(true);
  });
});

describe('the catalog of benches', () => {
  const benchDir = repoFile('bench');
  /** Modules the benches share, and the report's own: not benches. */
  const HELPERS = [
    'bench-orders.ts',
    'bench-stores.ts',
    'browser-host-bench.ts',
    'chromium-trace.ts',
    'cpu-profile.ts',
    'cpu-time.ts',
    'goals.ts',
    'machine.ts',
    'order-queue-data.ts',
    'performance-report.ts',
    'protocol-search-data.ts',
    'renderer-bundle.ts',
    'report.ts',
    'run-all.ts',
    'sandbox-process.ts',
    'stats.ts',
  ];
  const scripts = (
    JSON.parse(readFileSync(repoFile('package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;

  it('lists every bench in bench/, so npm run bench runs them all', () => {
    const files = readdirSync(benchDir).filter((f) => f.endsWith('.ts') && !HELPERS.includes(f));
    expect(BENCHES.map((b) => b.file).sort()).toEqual(files.sort());
  });

  it('runs each bench with its own npm script, and each bench records its figures', () => {
    for (const bench of BENCHES) {
      expect(scripts[bench.script], bench.script).toMatch(new RegExp(`tsx bench/${bench.file}$`));
      const source = readFileSync(path.join(benchDir, bench.file), 'utf8');
      for (const spec of FIGURES.filter((f) => f.bench === bench.file))
        expect(source, `${bench.file} records ${spec.id}`).toContain(`'${spec.id}'`);
    }
  });
});

describe('recording figures', () => {
  let dir: string | null = null;
  afterEach(() => {
    delete process.env[RESULTS_ENV];
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('appends to the file the runner names and reads back only valid records', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bench-report-'));
    const file = path.join(dir, 'results.jsonl');
    process.env[RESULTS_ENV] = file;
    recordFigure({ id: 'search.p95', value: 1.7, detail: '100,000 protocols' });
    recordFigure({ id: 'search.p95', value: Number.NaN });
    writeFileSync(file, '{"id":"search.p95","value":"fast"}\nnot json\n', { flag: 'a' });
    const { figures, invalid } = readFigures(file);
    expect(figures.map((f) => [f.id, f.value, f.detail])).toEqual([
      ['search.p95', 1.7, '100,000 protocols'],
    ]);
    expect(invalid).toHaveLength(2);
  });

  it('writes nothing when run on its own, and refuses an unknown figure', () => {
    expect(() => recordFigure({ id: 'search.p95', value: 1 })).not.toThrow();
    expect(() => recordFigure({ id: 'no.such' as 'search.p95', value: 1 })).toThrow(/unknown/);
  });
});

describe('why a bench failed', () => {
  it('takes the message of an uncaught exception, not its stack or fields', () => {
    const tail = [
      '  first run -> Connect screen    median  1131 ms',
      'node:internal/modules/run_main:123',
      '    triggerUncaughtException(',
      '    ^',
      '',
      'locator.focus: Timeout 30000ms exceeded.',
      'Call log:',
      '    at waitInteractive (/repo/bench/renderer-startup.ts:95:18)',
      "  name: 'TimeoutError'",
      '}',
    ].join('\n');
    expect(failureLine(tail)).toBe('locator.focus: Timeout 30000ms exceeded.');
  });

  it('takes the last error line, else the last line', () => {
    expect(failureLine('ok\nError: the sandbox died\n    at main (x.ts:1:1)\n')).toBe(
      'Error: the sandbox died',
    );
    expect(failureLine('\nBENCHMARK FAILED: non-2xx answers\n')).toBe(
      'BENCHMARK FAILED: non-2xx answers',
    );
    expect(failureLine('line one\nline two\n')).toBe('line two');
  });
});
