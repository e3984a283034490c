/**
 * docs/PERFORMANCE.md from one run of every bench: each goal with its latest figure and whether
 * it is met (computed from the goal, never written by hand), the figures without a goal, the
 * machine and how busy it was, and how each bench ended. A goal whose figure is missing shows as
 * not measured, with the reason (its bench failed, or was not run), so a crashed bench cannot
 * drop a goal from the page.
 */
import {
  BENCHES,
  FIGURES,
  goalMet,
  type BenchSpec,
  type FigureSpec,
  type Goal,
  type GoalOp,
} from './goals';
import type { LoadAverage, MachineInfo } from './machine';
import type { FigureRecord, Measured } from './report';

export interface BenchRun {
  file: string;
  /** The command that ran, as a shell would take it. */
  command: string;
  status: 'passed' | 'failed' | 'not run';
  /** Why it failed or did not run: the exit code or signal and the error it printed. */
  reason?: string;
  seconds?: number;
  loadStart?: LoadAverage;
  loadEnd?: LoadAverage;
  /** Share (0..1) of the machine's CPU that other work used while it ran; null when unknown. */
  otherShare?: number | null;
}

export interface ReportInput {
  generatedAt: Date;
  machine: MachineInfo;
  loadStart: LoadAverage;
  loadEnd: LoadAverage;
  otherShare: number | null;
  totalSeconds: number;
  runs: readonly BenchRun[];
  figures: readonly FigureRecord[];
  /** Lines of the results that were not valid records. */
  invalid?: readonly string[];
  /** The catalog (bench/goals.ts); tests pass their own. */
  benches?: readonly BenchSpec[];
  catalog?: readonly FigureSpec[];
}

export type Verdict =
  | { kind: 'met' | 'not met' | 'reported'; record: FigureRecord }
  | { kind: 'not measured'; reason: string };

const OPS: Record<GoalOp, string> = { '<': '<', '<=': '≤', '>=': '≥', '>': '>' };

const number = (value: number, digits: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A count's unit in the singular for one of it: "1 long task", "1 cycle". */
const countUnit = (text: string, unit: string) =>
  text === '1' && /^[a-z ]{3,}s$/.test(unit) ? unit.slice(0, -1) : unit;

const withUnit = (text: string, unit: string) =>
  unit === '' ? text : unit === '×' ? `${text}×` : `${text} ${countUnit(text, unit)}`;

/**
 * A figure as shown, with more decimals where its usual rounding would contradict the verdict
 * (0.9695 against >= 0.97 reads 0.9695, not 0.970).
 */
export function formatValue(
  value: number,
  spec: Pick<FigureSpec, 'unit' | 'digits'> & { goal?: Goal | null },
): string {
  let digits = spec.digits;
  const goal = spec.goal;
  if (goal) {
    const met = goalMet(value, goal);
    while (digits < spec.digits + 4 && goalMet(Number(value.toFixed(digits)), goal) !== met)
      digits++;
  }
  return withUnit(number(value, digits), spec.unit);
}

export const formatGoal = (goal: Goal, unit: string) =>
  goal.op === '<=' && goal.target === 0
    ? withUnit('0', unit)
    : `${OPS[goal.op]} ${withUnit(String(goal.target), unit)}`;

const formatPart = (p: Measured) => {
  const abs = Math.abs(p.value);
  return withUnit(number(p.value, abs >= 100 ? 0 : abs >= 10 ? 1 : 2), p.unit);
};

/** One table cell: no pipes or line breaks of its own. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

const loads = (l: LoadAverage | undefined) => (l ? l.map((n) => n.toFixed(2)).join(' / ') : '–');
const percent = (share: number | null | undefined) =>
  share === null || share === undefined ? 'unknown' : `${Math.round(share * 100)}%`;

function duration(seconds: number | undefined): string {
  if (seconds === undefined) return '–';
  const s = Math.round(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * The line that says why a bench failed: the message after Node's uncaught-exception marker, else
 * its last error line, else its last line.
 */
export function failureLine(tail: string): string {
  const lines = tail.split('\n').map((l) => l.trim());
  const marker = lines.findLastIndex((l) => l === '^');
  const afterMarker = marker >= 0 ? lines.slice(marker + 1).find((l) => l) : undefined;
  const meaningful = lines.filter((l) => l && !l.startsWith('at '));
  const error = meaningful.findLast((l) =>
    /BENCHMARK FAILED|\b\w*Error:|Timeout \d+ms exceeded/.test(l),
  );
  const line = afterMarker ?? error ?? meaningful.at(-1) ?? '';
  return line.length > 240 ? `${line.slice(0, 240)}…` : line;
}

/** The latest record of a figure, or why there is none. */
export function verdictFor(
  spec: FigureSpec,
  figures: readonly FigureRecord[],
  runs: readonly BenchRun[],
): Verdict {
  const record = figures.filter((f) => f.id === spec.id).at(-1);
  if (record) {
    if (!spec.goal) return { kind: 'reported', record };
    return { kind: goalMet(record.value, spec.goal) ? 'met' : 'not met', record };
  }
  const run = runs.find((r) => r.file === spec.bench);
  if (!run || run.status === 'not run')
    return {
      kind: 'not measured',
      reason: `\`${spec.bench}\` was not run${run?.reason ? ` (${run.reason})` : ''}`,
    };
  if (run.status === 'failed')
    return {
      kind: 'not measured',
      reason: `\`${spec.bench}\` failed${run.reason ? `: ${run.reason}` : ''}`,
    };
  return { kind: 'not measured', reason: `\`${spec.bench}\` finished without recording it` };
}

function figureCell(spec: FigureSpec, record: FigureRecord, run: BenchRun | undefined): string {
  let text = `**${formatValue(record.value, spec)}**`;
  if (record.parts) {
    const [a, b] = record.parts;
    text += ` (${a.label} ${formatPart(a)} / ${b.label} ${formatPart(b)}, same run)`;
  }
  if (record.detail) text += `<br>${record.detail}`;
  if (run?.status === 'failed') text += '<br>(the bench failed after recording this)';
  return cell(text);
}

function machineVerdict(input: ReportInput): string {
  const { machine, loadStart, otherShare } = input;
  const perCpu = loadStart[0] / machine.cpuCount;
  const quiet = perCpu < 0.5 && (otherShare === null || otherShare < 0.1);
  const facts =
    `the 1-minute load average was ${loadStart[0].toFixed(2)} on ${machine.cpuCount} CPUs when the ` +
    `run began, and work other than the benches used ${percent(otherShare)} of the machine's CPU ` +
    'while they ran';
  return quiet
    ? `**Quiet**: ${facts}.`
    : `**Not quiet**: ${facts}. Other work was running, so wall-clock figures include time spent ` +
        'waiting for a core; ratios measured in one run and CPU figures suffer less. Take the ' +
        'figures of record on a quiet machine.';
}

export function renderPerformanceReport(input: ReportInput): string {
  const benches = input.benches ?? BENCHES;
  const catalog = input.catalog ?? FIGURES;
  const runOf = (file: string) => input.runs.find((r) => r.file === file);
  const benchTitle = (file: string) => benches.find((b) => b.file === file)?.title ?? file;
  const goals = catalog.filter((f) => f.goal);
  const reported = catalog.filter((f) => !f.goal);
  const verdicts = new Map(catalog.map((f) => [f.id, verdictFor(f, input.figures, input.runs)]));
  const count = (kind: Verdict['kind']) => goals.filter((g) => verdicts.get(g.id)!.kind === kind);
  const { machine } = input;
  const out: string[] = [];

  out.push(
    '# Performance',
    '',
    `Written by \`npm run bench\` (\`bench/run-all.ts\`) on ${input.generatedAt.toISOString().replace(/\.\d+Z$/, 'Z')}; ` +
      'do not edit by hand. The goals and what bounds each figure are kept in ' +
      '[`bench/goals.ts`](../bench/goals.ts); how each bench measures, and the history of ' +
      'earlier runs, in [`bench/README.md`](../bench/README.md).',
    '',
    `**${goals.length} goals: ${count('met').length} met, ${count('not met').length} not met, ` +
      `${count('not measured').length} not measured.**`,
  );
  const short = [...count('not met'), ...count('not measured')];
  if (short.length > 0) {
    out.push('');
    for (const g of short) {
      const v = verdicts.get(g.id)!;
      out.push(
        `- ${v.kind === 'not met' ? 'Not met' : 'Not measured'}: ${g.title}` +
          (v.kind === 'not met'
            ? `, ${formatValue(v.record.value, g)} against ${formatGoal(g.goal!, g.unit)}.`
            : '.'),
      );
    }
  }

  out.push(
    '',
    '## The machine',
    '',
    `- CPU: ${machine.cpuCount} × ${machine.cpuModel}`,
    `- Memory: ${(machine.memoryBytes / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${machine.os}`,
    `- Node ${machine.node}; ${machine.chromium ?? 'no Chromium found'} (the renderer benches, headless, software rendering)`,
    `- Load average (1 / 5 / 15 min): ${loads(input.loadStart)} at the start, ${loads(input.loadEnd)} at the end`,
    `- Whole run: ${duration(input.totalSeconds)}`,
    '',
    machineVerdict(input),
    '',
    '## Goals',
    '',
    '| Bench | Goal | Latest figure | Target | Result | Bound by |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const g of goals) {
    const v = verdicts.get(g.id)!;
    const figure = v.kind === 'not measured' ? '–' : figureCell(g, v.record, runOf(g.bench));
    const result =
      v.kind === 'met'
        ? '**met**'
        : v.kind === 'not met'
          ? '**not met**'
          : `not measured: ${v.kind === 'not measured' ? v.reason : ''}`;
    out.push(
      `| ${cell(benchTitle(g.bench))} | ${cell(g.title)} | ${figure} | ${cell(formatGoal(g.goal!, g.unit))} | ${cell(result)} | ${cell(g.bound)} |`,
    );
  }

  out.push(
    '',
    '## Figures without a goal',
    '',
    'Reported for context: each bench’s baseline comparisons and the parts of the goals above.',
    '',
    '| Bench | Figure | Latest | Bound by |',
    '| --- | --- | --- | --- |',
  );
  for (const f of reported) {
    const v = verdicts.get(f.id)!;
    const figure =
      v.kind === 'not measured'
        ? cell(`not measured: ${v.reason}`)
        : figureCell(f, v.record, runOf(f.bench));
    out.push(`| ${cell(benchTitle(f.bench))} | ${cell(f.title)} | ${figure} | ${cell(f.bound)} |`);
  }

  out.push(
    '',
    '## The benches in this run',
    '',
    'Each ran alone, one after the other, at the size shown (its defaults unless the command says ' +
      'otherwise). Load average: the 1-minute figure before and after the bench; other work: the ' +
      'share of the machine’s CPU used by anything but the bench meanwhile.',
    '',
    '| Bench | Command | Result | Time | Load average | Other work |',
    '| --- | --- | --- | --- | --- | --- |',
  );
  for (const b of benches) {
    const run = runOf(b.file);
    const result = !run
      ? 'not run'
      : run.status === 'passed'
        ? 'passed'
        : `${run.status}${run.reason ? `: ${run.reason}` : ''}`;
    const load =
      run?.loadStart && run.loadEnd
        ? `${run.loadStart[0].toFixed(2)} → ${run.loadEnd[0].toFixed(2)}`
        : '–';
    out.push(
      `| \`${b.file}\` | ${run ? `\`${cell(run.command)}\`` : '–'} | ${cell(result)} | ${duration(run?.seconds)} | ${load} | ${run && run.status !== 'not run' ? percent(run.otherShare) : '–'} |`,
    );
  }
  const known = new Set(catalog.map((f) => f.id));
  const strays = input.figures.filter((f) => !known.has(f.id));
  if ((input.invalid?.length ?? 0) > 0 || strays.length > 0) {
    out.push('', 'Results that were left out (not a figure of `bench/goals.ts`):', '');
    for (const line of input.invalid ?? []) out.push(`- \`${cell(line.slice(0, 200))}\``);
    for (const f of strays) out.push(`- \`${f.id}\` = ${f.value}`);
  }
  return `${out.join('\n')}\n`;
}
