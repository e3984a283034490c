/**
 * Where paletteSearch's time goes in the store, by text: the protocols' search and the orders'
 * list (the two reads it makes), per length of text, at 100,000 protocols and orders. A probe for
 * issue 28 (bench/README.md, "Command palette"), not a bench of record.
 *
 *   npx tsx bench/probes/palette-store-parts.ts [--db /tmp/palette-probe.db] [--count 100000]
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { paletteSearch } from '@main/palette/palette-search';
import { planOrderSearch } from '@main/orders/order-search';
import { benchStore } from '../bench-stores';
import { benchOrder, insertBenchOrders } from '../order-queue-data';
import { FIRST_NAMES, LAST_NAMES, generateProtocols, seededRandom } from '../protocol-search-data';
import { percentile } from '../stats';

const { values } = parseArgs({
  strict: false,
  options: {
    db: { type: 'string', default: path.join(os.tmpdir(), 'palette-probe.db') },
    count: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
  },
});
const file = String(values.db);
const count = Number(values.count);
const runs = Number(values.runs);
const fresh = !existsSync(file);
const store = benchStore(file);
if (fresh) {
  const t = performance.now();
  store.protocols.upsertManyFromServer(generateProtocols(count));
  insertBenchOrders(store, count);
  console.log(
    `seeded ${count} protocols and orders in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}

// The bench's kinds of words (renderer-palette.ts), every prefix of each.
const r = seededRandom(11);
const now = Date.now();
const ascii = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^a-zA-Z-]/g, '')
    .toLowerCase();
const order = () => benchOrder(r.int(count), count, now);
const words = [
  ...Array.from({ length: 6 }, () => ascii(r.pick(LAST_NAMES))),
  ...Array.from({ length: 6 }, () => ascii(r.pick(FIRST_NAMES))),
  ...Array.from({ length: 4 }, () => `PAT-${1_000_000 + r.int(count) * 7}`),
  ...Array.from({ length: 4 }, () => order().customer.lastName.toLowerCase()),
  ...Array.from({ length: 4 }, () => order().customer.sourceId),
  ...Array.from({ length: 4 }, () => order().id.slice('ord_bench'.length).replace(/^0+/, '')),
  'sync',
  'settings',
  'refills',
  'import',
  'catalog',
  'activity',
];
const texts = [
  ...new Set(words.flatMap((w) => Array.from({ length: w.length }, (_, i) => w.slice(0, i + 1)))),
];

const time = (fn: () => unknown) => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    best = Math.min(best, performance.now() - t);
  }
  return best;
};
const rows = texts.map((text) => ({
  text,
  len: text.length,
  plan: planOrderSearch(store.db, text).kind,
  protocols: time(() => store.protocols.search(text, 50)),
  orders: time(() => store.orders.list({ search: text, limit: 50 })),
  found: store.orders.list({ search: text, limit: 50 }).length,
  all: time(() => paletteSearch(store, text, 5)),
}));
const fmt = (xs: number[]) =>
  `p50 ${percentile(xs, 50).toFixed(2)} p95 ${percentile(xs, 95).toFixed(2)} max ${Math.max(...xs).toFixed(2)} ms`;
console.log(
  `${texts.length} texts (best of ${runs}); paletteSearch ${fmt(rows.map((x) => x.all))}`,
);
for (const [label, pick] of [
  ['1 letter', (x: (typeof rows)[number]) => x.len === 1],
  ['2 letters', (x: (typeof rows)[number]) => x.len === 2],
  ['3+ letters', (x: (typeof rows)[number]) => x.len >= 3],
] as const) {
  const of = rows.filter(pick);
  console.log(
    `  ${label.padEnd(11)} (${of.length}): protocols ${fmt(of.map((x) => x.protocols))}; orders ${fmt(of.map((x) => x.orders))}; all ${fmt(of.map((x) => x.all))}`,
  );
}
console.log('slowest 25:');
for (const x of [...rows].sort((a, b) => b.all - a.all).slice(0, 25))
  console.log(
    `  ${JSON.stringify(x.text).padEnd(18)} all ${x.all.toFixed(2)}  protocols ${x.protocols.toFixed(2)}  orders ${x.orders.toFixed(2)} (${x.plan}, ${x.found} found)`,
  );
store.close();
