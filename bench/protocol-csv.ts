/**
 * CSV import of protocols at 10,000 rows (docs/csv.md): the preview and the commit (every draft
 * and its pending create in one transaction) on a store on disk, against the baseline of
 * createDraft row by row in one transaction; each run also commits into a fresh store
 * unencrypted, by turns, for what the encryption costs. Method: bench/README.md, "CSV import".
 *
 *   npx tsx bench/protocol-csv.ts [--rows 10000] [--runs 7]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Product } from '@shared/api';
import { writeCsv } from '@main/csv-text';
import { headerRow } from '@main/csv/csv-columns';
import { planImport } from '@main/csv/protocol-import';
import type { LocalStore } from '@main/stores';
import { SEED_PRODUCTS } from '@sandbox/seed/products';
import { benchStore, costLine, costParts, inTurn, type StoreMode } from './bench-stores';
import { goalOf } from './goals';
import { recordFigure } from './report';
import { median, positiveIntegers } from './stats';

const PRODUCTS: Product[] = SEED_PRODUCTS.map((p) => ({
  ...p,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}));

const GOAL_PREVIEW_MS = goalOf('csv.preview').target;
const GOAL_COMMIT_MS = goalOf('csv.commit').target;
const COST_GOAL = goalOf('encryption.csv-commit-cost').target;
const { values } = parseArgs({
  options: { rows: { type: 'string', default: '10000' }, runs: { type: 'string', default: '7' } },
});
const { rows, runs } = positiveIntegers({ rows: values.rows, runs: values.runs });

/** A clinic's file: three products a row (two pack, one external), a problem every 1,000 rows. */
function clinicFile(n: number, products: readonly Product[]): string {
  const packs = products.filter((p) => !p.external && p.status === 'ACTIVE');
  const external = products.find((p) => p.external && p.status === 'ACTIVE')!;
  const header = headerRow(3);
  const at = (name: string) => header.indexOf(name);
  const data = Array.from({ length: n }, (_, i) => {
    const cells = header.map(() => '');
    const set = (name: string, value: string | number) => (cells[at(name)] = String(value));
    set('Patient ID', `PAT-${String(i).padStart(6, '0')}`);
    set('First name', ['Ada', 'Zoë', 'Łukasz', 'Mary-Jo'][i % 4]!);
    set('Last name', `Patient, ${i}`);
    set('Email', `patient${i}@clinic.example`);
    set('Phone', '+1 503 555 0100');
    set('Address line 1', `${i} Main St, Suite "${i % 9}"`);
    set('City', 'Portland');
    set('State', 'OR');
    set('ZIP code', i % 1000 === 999 ? '9721' : '97210');
    set('Days supply', [30, 60, 90][i % 3]!);
    set('Shipping method', 'STANDARD');
    set('Order type', i % 2 ? 'SUBSCRIPTION' : 'ONE_TIME');
    const [a, b] = [packs[i % packs.length]!, packs[(i + 1) % packs.length]!];
    set('Product 1 ID', a.id);
    set('Product 1 name', a.name);
    set('Product 1 morning', 1);
    set('Product 1 evening', i % 3);
    set('Product 2 ID', b.id);
    set('Product 2 name', b.name);
    set('Product 2 bedtime', 1);
    set('Product 3 ID', external.id);
    set('Product 3 name', external.name);
    set('Product 3 quantity', 1);
    return cells;
  });
  return writeCsv(header, data);
}

/** A new store on disk with the catalog: encrypted as the app's, or the same unencrypted. */
function freshStore(dir: string, name: string, mode: StoreMode = 'encrypted'): LocalStore {
  const store = benchStore(path.join(dir, `${name}.db`), mode);
  store.products.upsertMany(PRODUCTS);
  return store;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'protocol-csv-'));
try {
  const text = clinicFile(rows, PRODUCTS);
  const preview: number[] = [];
  const commit: number[] = [];
  const plainPreview: number[] = [];
  const plainCommit: number[] = [];
  /** The CPU each commit used (every thread of the process): the wall clock less the waits. */
  const commitCpu: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
  const oneByOne: number[] = [];
  let ready = 0;
  let requests: ReturnType<typeof planImport>['requests'] = [];
  for (let run = 0; run < runs; run++) {
    // The preview and the commit into its store, on a fresh encrypted store (the app's) and on a
    // fresh unencrypted one, which first by turns.
    for (const mode of inTurn(run)) {
      const store = freshStore(dir, `run-${run}-${mode}`, mode);
      let t = performance.now();
      const plan = planImport(store, text);
      (mode === 'encrypted' ? preview : plainPreview).push(performance.now() - t);
      ready = plan.preview.ready;
      requests = plan.requests;
      const used = process.cpuUsage();
      t = performance.now();
      store.protocols.createDrafts(plan.requests);
      (mode === 'encrypted' ? commit : plainCommit).push(performance.now() - t);
      const { user, system } = process.cpuUsage(used);
      commitCpu[mode].push((user + system) / 1000);
      store.close();
    }

    const baseline = freshStore(dir, `baseline-${run}`);
    const t = performance.now();
    baseline.transaction(() => requests.forEach((r) => baseline.protocols.createDraft(r)));
    oneByOne.push(performance.now() - t);
    baseline.close();
  }
  const p = median(preview);
  const c = median(commit);
  const b = median(oneByOne);
  const cp = median(plainCommit);
  const mb = (Buffer.byteLength(text) / 1024 / 1024).toFixed(2);
  console.log(
    `CSV import of ${rows.toLocaleString('en-US')} rows (${mb} MB, ${ready} ready), median of ${runs}:`,
  );
  console.log(
    `  preview (read and check every row): ${p.toFixed(0)} ms; goal < ${GOAL_PREVIEW_MS} ms: ${p < GOAL_PREVIEW_MS ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  commit (createDrafts, one transaction): ${c.toFixed(0)} ms; goal < ${GOAL_COMMIT_MS} ms: ${c < GOAL_COMMIT_MS ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `  baseline, createDraft per row in one transaction: ${b.toFixed(0)} ms; commit / baseline = ${(c / b).toFixed(2)}`,
  );
  console.log(
    `  commit, encrypted / the same into a store unencrypted (${plainCommit.map((x) => x.toFixed(0)).join(', ')} ms): ` +
      `${costLine(c, cp)}; goal <= ${COST_GOAL}: ${c / cp <= COST_GOAL ? 'PASS' : 'ABOVE GOAL'}`,
  );
  const cpu = { encrypted: median(commitCpu.encrypted), plain: median(commitCpu.plain) };
  console.log(
    `  encrypted commits ${commit.map((x) => x.toFixed(0)).join(', ')} ms; the CPU of the commits (medians) ${costLine(cpu.encrypted, cpu.plain)}; preview unencrypted ${median(plainPreview).toFixed(0)} ms`,
  );
  const detail = `${rows.toLocaleString('en-US')} rows, ${mb} MB, median of ${runs}`;
  recordFigure({ id: 'csv.preview', value: p, detail });
  recordFigure({ id: 'csv.commit', value: c, detail });
  recordFigure({
    id: 'csv.commit-vs-one-by-one',
    value: c / b,
    parts: [
      { label: 'createDrafts', value: c, unit: 'ms' },
      { label: 'createDraft per row', value: b, unit: 'ms' },
    ],
    detail,
  });
  recordFigure({
    id: 'encryption.csv-commit-cost',
    value: c / cp,
    parts: costParts(c, cp),
    detail: `${detail}, the encrypted and the unencrypted commit in turn; CPU ${cpu.encrypted.toFixed(0)} / ${cpu.plain.toFixed(0)} ms = ${(cpu.encrypted / cpu.plain).toFixed(3)}×`,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
