/**
 * How a bench hands its figures to `npm run bench` (bench/run-all.ts): besides printing them, it
 * calls recordFigure, which appends one JSON line to the file named by ORDER_DESK_BENCH_RESULTS.
 * Run on its own (`npm run bench:<x>`), the variable is unset and nothing is written.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { figureSpec, type FigureId } from './goals';

export const RESULTS_ENV = 'ORDER_DESK_BENCH_RESULTS';

const Part = z.object({ label: z.string(), value: z.number(), unit: z.string() });

export const FigureRecordSchema = z.object({
  id: z.string(),
  value: z.number(),
  /** What ran: the size, the rounds, anything needed to read the figure. */
  detail: z.string().optional(),
  /** For a ratio: the two figures it divides, measured in the same run. */
  parts: z.tuple([Part, Part]).optional(),
  recordedAt: z.string(),
});

export type FigureRecord = z.infer<typeof FigureRecordSchema>;
export type Measured = z.infer<typeof Part>;

export interface FigureInput {
  id: FigureId;
  value: number;
  detail?: string;
  parts?: [Measured, Measured];
}

/** Records one figure for the report (a no-op unless ORDER_DESK_BENCH_RESULTS names a file). */
export function recordFigure(input: FigureInput): void {
  figureSpec(input.id); // an unknown id is a programming error, whether or not a report is made
  const file = process.env[RESULTS_ENV];
  if (!file) return;
  if (!Number.isFinite(input.value)) {
    console.error(`(bench report: ${input.id} was not a number, ${input.value}; not recorded)`);
    return;
  }
  const record: FigureRecord = { ...input, recordedAt: new Date().toISOString() };
  appendFileSync(file, `${JSON.stringify(FigureRecordSchema.parse(record))}\n`);
}

/** The figures in a results file, and the lines that were not a valid record. */
export function readFigures(file: string): { figures: FigureRecord[]; invalid: string[] } {
  const figures: FigureRecord[] = [];
  const invalid: string[] = [];
  if (!existsSync(file)) return { figures, invalid };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      invalid.push(line);
      continue;
    }
    const parsed = FigureRecordSchema.safeParse(json);
    if (parsed.success) figures.push(parsed.data);
    else invalid.push(line);
  }
  return { figures, invalid };
}
