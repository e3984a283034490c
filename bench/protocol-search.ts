/**
 * Local protocol search at 100,000 protocols (bench/README.md): the chosen approach (FTS5 trigram
 * index planned on the rarest trigrams, LIKE re-check) against the alternative (LIKE over the
 * indexed search column), on the same database, with the same queries. The store is encrypted, as
 * the app's is; the same store unencrypted runs beside it, the same data and the same queries,
 * each call on both in turn, for what the encryption costs (encryption.*).
 *
 *   npx tsx bench/protocol-search.ts [--count 100000] [--queries 1000] [--limit 50]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LocalStore } from '@main/stores';
import { normalizeForSearch } from '@main/protocols/protocol-search';
import { planFtsSearch, planLikeSearch, searchSeqs } from '@main/protocols/protocol-search';
import { benchStore, costLine, costParts, MODES, timeInTurn, type StoreMode } from './bench-stores';
import { goalOf } from './goals';
import {
  CATALOG_PRODUCT_IDS,
  generateProtocols,
  ORDERS_NOW,
  ordersOf,
  seededRandom,
} from './protocol-search-data';
import { recordFigure } from './report';
import { positiveIntegers } from './stats';

const GOAL_P95_MS = goalOf('search.p95').target;
const PRODUCT_GOAL_MS = goalOf('search.product-filter-p95').target;
const SEARCH_COST_GOAL = goalOf('encryption.search-p95-cost').target;
const PRODUCT_COST_GOAL = goalOf('encryption.product-filter-p95-cost').target;
// Not strict: `npm run bench -- <flags>` passes its flags to the last bench of the chain.
const { values } = parseArgs({
  strict: false,
  options: {
    count: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '1000' },
    limit: { type: 'string', default: '50' },
  },
});
const unknown = Object.keys(values).filter((k) => !['count', 'queries', 'limit'].includes(k));
if (unknown.length) console.log(`(ignoring flags of other benches: ${unknown.join(', ')})`);
const {
  count,
  queries: queryCount,
  limit,
} = positiveIntegers({ count: values.count, queries: values.queries, limit: values.limit });

const KINDS = [
  'last-name prefix',
  'substring',
  'full sourceId',
  'email fragment',
  'no match',
] as const;
type Kind = (typeof KINDS)[number];

const dir = mkdtempSync(path.join(os.tmpdir(), 'protocol-search-'));
const files: Record<StoreMode, string> = {
  encrypted: path.join(dir, 'store.db'),
  plain: path.join(dir, 'store-plain.db'),
};
/** The app's store (encrypted), and the same store unencrypted beside it. */
const stores: Record<StoreMode, LocalStore> = {
  encrypted: benchStore(files.encrypted, 'encrypted'),
  plain: benchStore(files.plain, 'plain'),
};
const store = stores.encrypted;
try {
  const protocols = generateProtocols(count);
  const insertMs: Record<StoreMode, number> = { encrypted: 0, plain: 0 };
  for (const mode of MODES) {
    const s = stores[mode];
    const insertStart = performance.now();
    s.protocols.upsertManyFromServer(protocols); // one transaction
    insertMs[mode] = performance.now() - insertStart;
    // One pull writes every row in the same millisecond; a store in use has rows changed at many
    // times, in no relation to their creation: spread the last local change over a year, shuffled
    // against seq, so the list by last change is not the creation order (nor one long tie).
    s.db
      .prepare(
        'UPDATE protocols SET local_updated_at = local_updated_at - ((seq * 7919) % ?) * 317000',
      )
      .run(count);
    s.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  const queries = makeQueries(protocols, queryCount);
  const page = { where: ['p.deleted = 0'], params: [] as unknown[], limit };
  const approachesOf = (s: LocalStore) => ({
    'FTS5 trigram, rarest trigrams + LIKE re-check (chosen)': (q: string) =>
      searchSeqs(s.db, planFtsSearch(s.db, q), page),
    'LIKE over the indexed search column (alternative)': (q: string) =>
      searchSeqs(s.db, planLikeSearch(q), page),
    'ProtocolsRepo.search end to end (chosen: find + read summaries)': (q: string) =>
      s.protocols.search(q, limit),
    'ProtocolsRepo.list, search + total, by last change (protocols.list)': (q: string) =>
      s.protocols.list({ search: q, limit, sort: 'changed' }),
    'ProtocolsRepo.list, search + total, by name (protocols.list)': (q: string) =>
      s.protocols.list({ search: q, limit, sort: 'name' }),
  });
  const approaches = {
    encrypted: approachesOf(stores.encrypted),
    plain: approachesOf(stores.plain),
  };
  const names = Object.keys(approaches.encrypted) as (keyof typeof approaches.encrypted)[];

  // Warm-up: the page cache and prepared statements, as in a running app.
  for (const { text } of queries.slice(0, 100))
    for (const mode of MODES) for (const run of Object.values(approaches[mode])) run(text);

  // Each approach runs each query on both stores in turn (which goes first alternates), so both
  // stores see the same sequence of reads and their caches hold the same pages.
  const timings: Record<StoreMode, Map<string, Map<Kind, number[]>>> = {
    encrypted: new Map(),
    plain: new Map(),
  };
  /** The CPU each call used, per approach: what the wall clock is, less waiting for a core. */
  const cpuTimings: Record<StoreMode, Map<string, number[]>> = {
    encrypted: new Map(),
    plain: new Map(),
  };
  let mismatches = 0;
  const hits = new Map<Kind, number[]>();
  for (const [i, { kind, text }] of queries.entries()) {
    let found: number[] | undefined;
    for (const name of names) {
      const results: Partial<Record<StoreMode, unknown>> = {};
      const { ms, cpu } = timeInTurn(i, (mode) => (results[mode] = approaches[mode][name](text)));
      for (const mode of MODES) {
        const byKind = timings[mode].get(name) ?? new Map<Kind, number[]>();
        timings[mode].set(name, byKind);
        byKind.set(kind, [...(byKind.get(kind) ?? []), ms[mode]]);
        cpuTimings[mode].set(name, [...(cpuTimings[mode].get(name) ?? []), cpu[mode]]);
      }
      for (const result of Object.values(results)) {
        if (Array.isArray(result) && typeof result[0] !== 'object') {
          const seqs = result as number[];
          if (found === undefined) found = seqs;
          else if (found.join() !== seqs.join()) mismatches++;
        }
      }
    }
    hits.set(kind, [...(hits.get(kind) ?? []), found?.length ?? 0]);
  }

  const sizes = store.db
    .prepare(
      "SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('protocols', 'protocols_list', 'protocols_source_id') OR name LIKE 'protocols_fts%' GROUP BY name",
    )
    .all() as { name: string; bytes: number }[];
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const ftsBytes = sizes
    .filter((s) => s.name.startsWith('protocols_fts'))
    .reduce((a, s) => a + s.bytes, 0);

  console.log(
    `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${mb(os.totalmem())} RAM, Node ${process.version}, SQLite ${(store.db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v}`,
  );
  console.log(
    `Data: ${count.toLocaleString('en')} protocols inserted in one transaction (ProtocolsRepo.upsertManyFromServer, FTS triggers included): ${(insertMs.encrypted / 1000).toFixed(2)} s, ${Math.round(count / (insertMs.encrypted / 1000)).toLocaleString('en')} rows/s (the same store unencrypted: ${(insertMs.plain / 1000).toFixed(2)} s)`,
  );
  console.log(
    `Database file ${mb(statSync(files.encrypted).size)} encrypted, ${mb(statSync(files.plain).size)} plain: protocols table ${mb(sizes.find((s) => s.name === 'protocols')?.bytes ?? 0)}, FTS5 trigram index ${mb(ftsBytes)}, protocols_list index ${mb(sizes.find((s) => s.name === 'protocols_list')?.bytes ?? 0)}`,
  );
  console.log(
    `\nSearch, limit ${limit}: ${queries.length} queries, ${queries.length / KINDS.length} of each kind, interleaved; times in ms, the encrypted store\n`,
  );
  const header = ['approach', 'p50', 'p95', 'p99', 'max'];
  const rows = [...timings.encrypted].map(([name, byKind]) => {
    const all = [...byKind.values()].flat();
    return [name, ...[0.5, 0.95, 0.99, 1].map((q) => fmt(percentile(all, q)))];
  });
  printTable(header, rows);
  console.log('\np95 by kind of query (ms), and mean results per query\n');
  printTable(
    [
      'kind',
      ...[...timings.encrypted.keys()].map((n) => n.split(' (')[0]!.split(',')[0]!),
      'results',
    ],
    KINDS.map((kind) => [
      kind,
      ...[...timings.encrypted.values()].map((byKind) =>
        fmt(percentile(byKind.get(kind) ?? [], 0.95)),
      ),
      mean(hits.get(kind) ?? []).toFixed(1),
    ]),
  );
  // The list as the screen asks for it (first page and the total), per sort, and the same with
  // an empty search (the whole list: the total counts every protocol).
  const LIST_GOAL_MS = 50;
  const size = `${count.toLocaleString('en')} protocols, ${queries.length.toLocaleString('en')} queries, limit ${limit}`;
  for (const sort of ['changed', 'name'] as const) {
    const name = `ProtocolsRepo.list, search + total, by ${sort === 'name' ? 'name' : 'last change'} (protocols.list)`;
    const searched = [...(timings.encrypted.get(name)?.values() ?? [])].flat();
    const empty: number[] = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      store.protocols.list({ search: '', limit, sort });
      empty.push(performance.now() - start);
    }
    const p95s = [percentile(searched, 0.95), percentile(empty, 0.95)];
    if (sort === 'name')
      recordFigure({ id: 'search.list-by-name-p95', value: p95s[0]!, detail: size });
    console.log(
      `protocols.list sort=${sort}: search + total p95 ${fmt(p95s[0]!)} ms, empty search + total (all ${count.toLocaleString('en')}) p95 ${fmt(p95s[1]!)} ms; keystroke-to-rows budget ${LIST_GOAL_MS} ms: ${Math.max(...p95s) < LIST_GOAL_MS / 5 ? 'well under' : 'CHECK'}`,
    );
  }
  productFilter(size);
  columnSorts(protocols, size);
  const all = (mode: StoreMode, name: string) =>
    [...(timings[mode].get(name)?.values() ?? [])].flat();
  const chosen = all(
    'encrypted',
    'ProtocolsRepo.search end to end (chosen: find + read summaries)',
  );
  const alternative = all('encrypted', 'LIKE over the indexed search column (alternative)');
  const p95 = percentile(chosen, 0.95);
  const alternativeP95 = percentile(alternative, 0.95);
  console.log(`\nRatio of p95, alternative / chosen: ${(alternativeP95 / p95).toFixed(1)}×`);
  recordFigure({ id: 'search.p95', value: p95, detail: size });
  recordFigure({
    id: 'search.like-vs-fts',
    value: alternativeP95 / p95,
    parts: [
      { label: 'LIKE', value: alternativeP95, unit: 'ms' },
      { label: 'ProtocolsRepo.search', value: p95, unit: 'ms' },
    ],
    detail: size,
  });
  console.log(
    `Goal: ProtocolsRepo.search p95 < ${GOAL_P95_MS} ms at ${count.toLocaleString('en')} protocols: ${fmt(p95)} ms, ${p95 < GOAL_P95_MS ? 'PASS' : 'BELOW GOAL'}`,
  );

  // What the encryption costs: the same calls on the same store unencrypted, in the same turns.
  console.log(
    '\nEncrypted against the same store unencrypted, the same calls in turn: p95 (ms), and the CPU they used (p95, mean)\n',
  );
  const cpuOf = (mode: StoreMode, name: string) => cpuTimings[mode].get(name) ?? [];
  const ratio = (e: number, pl: number) => `${(e / pl).toFixed(3)}×`;
  printTable(
    [
      'approach',
      'encrypted',
      'plain',
      'enc / plain',
      'CPU p95 enc / plain',
      'CPU mean enc / plain',
    ],
    names.map((name) => {
      const [e, pl] = [
        percentile(all('encrypted', name), 0.95),
        percentile(all('plain', name), 0.95),
      ];
      return [
        name,
        fmt(e),
        fmt(pl),
        ratio(e, pl),
        ratio(percentile(cpuOf('encrypted', name), 0.95), percentile(cpuOf('plain', name), 0.95)),
        ratio(mean(cpuOf('encrypted', name)), mean(cpuOf('plain', name))),
      ];
    }),
  );
  const searchName = 'ProtocolsRepo.search end to end (chosen: find + read summaries)';
  const cpuP95 = [
    percentile(cpuOf('encrypted', searchName), 0.95),
    percentile(cpuOf('plain', searchName), 0.95),
  ] as const;
  const plainP95 = percentile(
    all('plain', 'ProtocolsRepo.search end to end (chosen: find + read summaries)'),
    0.95,
  );
  recordFigure({
    id: 'encryption.search-p95-cost',
    value: p95 / plainP95,
    parts: costParts(p95, plainP95),
    detail: `${size}, each query on both stores in turn; CPU p95 ${fmt(cpuP95[0])} / ${fmt(cpuP95[1])} ms = ${ratio(...cpuP95)}`,
  });
  console.log(
    `Goal: ProtocolsRepo.search p95, encrypted / plain <= ${SEARCH_COST_GOAL}: ${costLine(p95, plainP95)}, ${p95 / plainP95 <= SEARCH_COST_GOAL ? 'PASS' : 'ABOVE GOAL'} (CPU p95 ${costLine(...cpuP95)})`,
  );
  console.log(
    `Every approach returned the same protocols on both stores for ${queries.length - mismatches} of ${queries.length} queries`,
  );
  if (mismatches > 0) process.exitCode = 1;
} finally {
  for (const mode of MODES) stores[mode].close();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The list's product filter ("who is on Krill Oil?") at this size, as the screen asks for it: the
 * first page and then the total (protocols.list, then protocols.count), by each sort, a different
 * product every time (so the count is never the one kept from the query before); each query on
 * the encrypted store and the same store unencrypted in turn.
 */
function productFilter(size: string): void {
  const pages: number[] = [];
  const counts: number[] = [];
  const both: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
  const cpus: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
  const runs = 420;
  for (let i = 0; i < runs + 40; i++) {
    const productId = CATALOG_PRODUCT_IDS[i % CATALOG_PRODUCT_IDS.length]!;
    const sort = i % 4 < 2 ? 'changed' : 'name';
    let paged = 0;
    // The same query on both stores in turn; the page and the count apart on the encrypted one.
    const { ms, cpu } = timeInTurn(i, (mode) => {
      const start = performance.now();
      stores[mode].protocols.page({ productId, limit, sort });
      if (mode === 'encrypted') paged = performance.now() - start;
      stores[mode].protocols.countMatching({ productId });
    });
    if (i < 40) continue; // warm-up
    pages.push(paged);
    counts.push(ms.encrypted - paged);
    for (const mode of MODES) {
      both[mode].push(ms[mode]);
      cpus[mode].push(cpu[mode]);
    }
  }
  const p95 = percentile(both.encrypted, 0.95);
  const plainP95 = percentile(both.plain, 0.95);
  const cpuP95 = [percentile(cpus.encrypted, 0.95), percentile(cpus.plain, 0.95)] as const;
  const { lines } = store.db.prepare('SELECT COUNT(*) AS lines FROM protocol_products').get() as {
    lines: number;
  };
  const each = Math.round(lines / CATALOG_PRODUCT_IDS.length).toLocaleString('en');
  console.log(
    `\nProduct filter (one of ${CATALOG_PRODUCT_IDS.length} products, about ${each} protocols each), both sorts, ${runs} queries: ` +
      `first page p95 ${fmt(percentile(pages, 0.95))} ms, total p95 ${fmt(percentile(counts, 0.95))} ms, page + total p95 ${fmt(p95)} ms (max ${fmt(percentile(both.encrypted, 1))} ms)`,
  );
  recordFigure({ id: 'search.product-filter-p95', value: p95, detail: size });
  console.log(
    `Goal: product filter, page + total, p95 < ${PRODUCT_GOAL_MS} ms at ${count.toLocaleString('en')} protocols: ${p95 < PRODUCT_GOAL_MS ? 'PASS' : 'BELOW GOAL'}`,
  );
  recordFigure({
    id: 'encryption.product-filter-p95-cost',
    value: p95 / plainP95,
    parts: costParts(p95, plainP95),
    detail: `${size}, each query on both stores in turn; CPU p95 ${fmt(cpuP95[0])} / ${fmt(cpuP95[1])} ms = ${(cpuP95[0] / cpuP95[1]).toFixed(3)}×`,
  });
  console.log(
    `Goal: product filter p95, encrypted / plain <= ${PRODUCT_COST_GOAL}: ${costLine(p95, plainP95)}, ${p95 / plainP95 <= PRODUCT_COST_GOAL ? 'PASS' : 'ABOVE GOAL'} (CPU p95 ${costLine(...cpuP95)})`,
  );
}

/**
 * The list sorted by each of its columns (products, supply, shipping, last order, next refill,
 * sync state), both ways, as the screen reads it: 20 pages one after the other (keyset, each
 * page after the one before), with a third of the patients ordered for; then the refill filter's
 * first page and total. Every page should cost the same, however deep.
 */
function columnSorts(protocols: ReturnType<typeof generateProtocols>, size: string): void {
  const now = ORDERS_NOW;
  const orders = ordersOf(protocols);
  const seedStart = performance.now();
  store.orders.upsertMany(orders, 'pulled');
  const seedMs = performance.now() - seedStart;
  const sorts = ['products', 'supply', 'shipping', 'lastOrder', 'nextRefill', 'sync'] as const;
  const pages: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const sort of sorts) {
      for (const direction of ['asc', 'desc'] as const) {
        let cursor: string | null = null;
        for (let page = 0; page < 20; page++) {
          const start = performance.now();
          const read = store.protocols.page({ sort, direction, limit, cursor });
          if (round > 0) pages.push(performance.now() - start); // the first round warms up
          cursor = read.nextCursor;
        }
      }
    }
  }
  const due: number[] = [];
  for (let i = 0; i < 120; i++) {
    const window = (['ran-out', 'within-7', 'within-14', 'within-30'] as const)[i % 4]!;
    const query = {
      due: { window, now: now + (i % 30) * 86_400_000 },
      sort: 'nextRefill' as const,
    };
    const start = performance.now();
    store.protocols.page({ ...query, limit });
    store.protocols.countMatching(query);
    if (i >= 20) due.push(performance.now() - start);
  }
  const p95 = percentile(pages, 0.95);
  console.log(
    `\nColumn sorts (${sorts.length} columns, both ways, 20 pages each; ${orders.length.toLocaleString('en')} orders mirrored in ${fmt(seedMs)} ms): ` +
      `page p95 ${fmt(p95)} ms (max ${fmt(percentile(pages, 1))} ms); refill filter, page + total p95 ${fmt(percentile(due, 0.95))} ms`,
  );
  recordFigure({ id: 'search.column-sort-p95', value: p95, detail: size });
  recordFigure({ id: 'search.due-filter-p95', value: percentile(due, 0.95), detail: size });
}

function makeQueries(
  protocols: ReturnType<typeof generateProtocols>,
  n: number,
): { kind: Kind; text: string }[] {
  const r = seededRandom(7);
  const perKind = Math.ceil(n / KINDS.length);
  const slice = (s: string, min: number, max: number, from = -1) => {
    const len = Math.min(s.length, min + r.int(max - min + 1));
    const start = from >= 0 ? from : r.int(Math.max(1, s.length - len + 1));
    return s.slice(start, start + len);
  };
  const make: Record<Kind, () => string> = {
    'last-name prefix': () => slice(r.pick(protocols).customer.lastName, 3, 5, 0),
    substring: () => {
      const c = r.pick(protocols).customer;
      const name = r.next() < 0.5 ? c.firstName : c.lastName;
      return name.length > 4 ? slice(name, 3, 4, 1 + r.int(name.length - 4)) : name;
    },
    'full sourceId': () => r.pick(protocols).customer.sourceId,
    'email fragment': () => {
      let email: string | null = null;
      while (!email) email = r.pick(protocols).customer.email;
      const [local, domain] = email.split('@') as [string, string];
      return r.pick([slice(local, 4, 7, 0), `@${slice(domain, 3, 6, 0)}`, slice(email, 4, 8)]);
    },
    'no match': () =>
      r.pick([
        Array.from({ length: 6 }, () => r.pick([...'bcdfghjkpqvwxz'])).join(''),
        `PAT-9${String(r.int(999_999)).padStart(6, '0')}`,
        `nobody${r.int(1000)}@nowhere.test`,
      ]),
  };
  const out: { kind: Kind; text: string }[] = [];
  for (let i = 0; i < perKind; i++)
    for (const kind of KINDS) out.push({ kind, text: make[kind]() });
  // keep the no-match kind honest: drop any query that happens to match the data
  const all = protocols.map((p) =>
    normalizeForSearch(
      `${p.customer.firstName} ${p.customer.lastName} ${p.customer.sourceId} ${p.customer.email ?? ''}`,
    ),
  );
  return out.map((q) =>
    q.kind === 'no match' && all.some((t) => t.includes(normalizeForSearch(q.text)))
      ? { ...q, text: 'zzqxzzqx' }
      : q,
  );
}

function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(3) : ms.toFixed(1);
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
