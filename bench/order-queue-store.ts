/**
 * The order queue's reads in the main process at 100,000 orders: OrdersRepo.list at the top,
 * middle and end, filtered and searched, its total and counts per status, cold and warm; the
 * encrypted store against the same orders unencrypted, in turn; medians of --runs calls. --db
 * keeps the stores for the next run. Method: bench/README.md, "Order queue at 100,000 orders".
 *
 *   npx tsx bench/order-queue-store.ts [--count 100000] [--runs 9] [--first-page-runs 401] [--db F]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LocalStore } from '@main/stores';
import type { OrderQuery } from '@main/orders/orders-repo';
import { benchStore, costLine, costParts, inTurn, MODES, type StoreMode } from './bench-stores';
import { goalOf } from './goals';
import { insertBenchOrders } from './order-queue-data';
import { recordFigure } from './report';
import { median, positiveIntegers } from './stats';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '9' },
    'first-page-runs': { type: 'string', default: '401' },
    db: { type: 'string' },
  },
});
const { count, runs, firstPageRuns } = positiveIntegers({
  count: values.count,
  runs: values.runs,
  firstPageRuns: values['first-page-runs'],
});
const COST_GOAL = goalOf('encryption.order-queue-first-page-cost').target;

const tmp = values.db ? null : mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-queue-'));
const file = values.db ?? path.join(tmp!, 'order-desk.db');
const files: Record<StoreMode, string> = {
  encrypted: file,
  plain: file.replace(/(\.db)?$/, '.plain.db'),
};
const reuse = { encrypted: existsSync(files.encrypted), plain: existsSync(files.plain) };
/** The app's store (encrypted), and the same orders unencrypted beside it. */
const stores: Record<StoreMode, LocalStore> = {
  encrypted: benchStore(files.encrypted, 'encrypted'),
  plain: benchStore(files.plain, 'plain'),
};
try {
  const now = Date.now();
  for (const mode of MODES) {
    const s = stores[mode];
    if (!reuse[mode] || s.orders.count() !== count) {
      const start = performance.now();
      insertBenchOrders(s, count, now);
      s.db.pragma('wal_checkpoint(TRUNCATE)');
      console.log(
        `${count} orders inserted (${mode}) in ${((performance.now() - start) / 1000).toFixed(1)} s`,
      );
    } else console.log(`reusing ${files[mode]} (${count} orders)`);
  }
  console.log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );

  /** A write the counts must see (the poll schedule of the newest order): the next count is cold. */
  const touch = (s: LocalStore): void => {
    s.orders.schedulePoll('ord_bench00000000', { nextPollAt: null, polledAt: Date.now() });
  };
  /**
   * The median time of `fn` on each store over `calls` calls, each call on both stores in turn
   * (which goes first alternates); `before` runs untimed before each.
   */
  const mediansOf = (
    fn: (s: LocalStore) => unknown,
    before?: (s: LocalStore) => void,
    calls = runs,
  ): Record<StoreMode, number> & { cpu: Record<StoreMode, number> } => {
    const times: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
    const cpu: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
    for (const mode of MODES) fn(stores[mode]); // warm: statements prepared, pages cached
    for (let r = 0; r < calls; r++) {
      for (const mode of inTurn(r)) {
        before?.(stores[mode]);
        const used = process.cpuUsage();
        const start = performance.now();
        fn(stores[mode]);
        times[mode].push(performance.now() - start);
        const { user, system } = process.cpuUsage(used);
        cpu[mode].push((user + system) / 1000);
      }
    }
    return {
      encrypted: median(times.encrypted),
      plain: median(times.plain),
      cpu: { encrypted: median(cpu.encrypted), plain: median(cpu.plain) },
    };
  };
  console.log(`${''.padEnd(58)} ${'encrypted'.padStart(11)} ${'plain'.padStart(11)}  enc/plain`);
  const row = (what: string, ms: Record<StoreMode, number>): void =>
    console.log(
      `${what.padEnd(58)} ${ms.encrypted.toFixed(2).padStart(8)} ms ${ms.plain.toFixed(2).padStart(8)} ms  ${(ms.encrypted / ms.plain).toFixed(3)}×`,
    );

  const size = `${count.toLocaleString('en')} orders, median of ${runs} calls`;
  // The queue's first page as the screen opens it: orders.list reads the page, the total and the
  // page's possible duplicates (ipc/handlers/orders.ts), right after a write (a poll, a job) made
  // the total cold.
  const firstPage = (s: LocalStore) => {
    const orders = s.orders.list({ limit: 100, offset: 0 });
    s.orders.count({});
    s.orders.duplicateOf(orders.map((o) => o.id));
  };
  const first = mediansOf(firstPage, touch, firstPageRuns);
  row('first page (orders.list: 100, total, duplicates), cold', first);
  // The same read first thing on a connection just opened: nothing in its cache.
  const opened: Record<StoreMode, number[]> = { encrypted: [], plain: [] };
  for (let r = 0; r < 21; r++) {
    for (const mode of inTurn(r)) {
      const fresh = benchStore(files[mode], mode);
      const start = performance.now();
      firstPage(fresh);
      opened[mode].push(performance.now() - start);
      fresh.close();
    }
  }
  const firstOpened = { encrypted: median(opened.encrypted), plain: median(opened.plain) };
  row('first page, the first read of a connection just opened', firstOpened);
  recordFigure({
    id: 'orders-store.first-page',
    value: first.encrypted,
    detail: `${count.toLocaleString('en')} orders, median of ${firstPageRuns} calls`,
  });
  recordFigure({
    id: 'encryption.order-queue-first-page-cost',
    value: first.encrypted / first.plain,
    parts: costParts(first.encrypted, first.plain),
    detail: `${count.toLocaleString('en')} orders, medians of ${firstPageRuns} calls on each store in turn; on a connection just opened ${costLine(firstOpened.encrypted, firstOpened.plain)}; CPU ${first.cpu.encrypted.toFixed(2)} / ${first.cpu.plain.toFixed(2)} ms = ${(first.cpu.encrypted / first.cpu.plain).toFixed(3)}×`,
  });

  const last = count - 100;
  const lists: [string, OrderQuery][] = [
    ['list, 100 at offset 0', { limit: 100, offset: 0 }],
    [`list, 100 at offset ${count / 2}`, { limit: 100, offset: count / 2 }],
    [`list, 100 at offset ${last}`, { limit: 100, offset: last }],
    [
      `list DELIVERED, 100 at offset ${Math.floor(count / 3)}`,
      { statuses: ['DELIVERED'], limit: 100, offset: Math.floor(count / 3) },
    ],
    [
      `list NEW+PROCESSING, 100 at offset 0`,
      { statuses: ['NEW', 'PROCESSING'], limit: 100, offset: 0 },
    ],
    [
      `list search 'hopper', 100 at offset ${Math.floor(count / 10)}`,
      { search: 'hopper', limit: 100, offset: Math.floor(count / 10) },
    ],
    [`list search 'ada hopper', 100 at offset 0`, { search: 'ada hopper', limit: 100, offset: 0 }],
    [`list sourceId patient-00042`, { sourceId: 'patient-00042', limit: 100, offset: 0 }],
  ];
  for (const [what, q] of lists) {
    const ms = mediansOf((s) => s.orders.list(q));
    row(what, ms);
    if (q.offset === count / 2 && !q.statuses && !q.search)
      recordFigure({ id: 'orders-store.list-middle', value: ms.encrypted, detail: size });
  }

  const counts: [string, Omit<OrderQuery, 'limit' | 'offset'>][] = [
    ['count, no filter', {}],
    ["count search 'hopper'", { search: 'hopper' }],
    ["count search 'ada hopper'", { search: 'ada hopper' }],
    ["count DELIVERED search 'hopper'", { statuses: ['DELIVERED'], search: 'hopper' }],
  ];
  for (const [what, q] of counts) {
    const cold = mediansOf((s) => s.orders.count(q), touch);
    row(`${what}, cold`, cold);
    if (q.search === 'hopper' && !q.statuses)
      recordFigure({
        id: 'orders-store.count-search-cold',
        value: cold.encrypted,
        detail: `${size}, search 'hopper'`,
      });
    row(
      `${what}, next page`,
      mediansOf((s) => s.orders.count(q)),
    );
  }
  for (const [what, q] of [
    ['countByStatus, no filter', {}],
    ["countByStatus search 'hopper'", { search: 'hopper' }],
  ] as const) {
    row(
      `${what}, cold`,
      mediansOf((s) => s.orders.countByStatus(q), touch),
    );
    row(
      `${what}, unchanged`,
      mediansOf((s) => s.orders.countByStatus(q)),
    );
  }
  const cost = first.encrypted / first.plain;
  console.log(
    `\nGoal: the first page, encrypted / plain <= ${COST_GOAL}: ${costLine(first.encrypted, first.plain)}, ${cost <= COST_GOAL ? 'PASS' : 'ABOVE GOAL'} (CPU ${costLine(first.cpu.encrypted, first.cpu.plain)}); ` +
      `on a connection just opened ${costLine(firstOpened.encrypted, firstOpened.plain)}`,
  );
  console.log(
    `\nload average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const mode of MODES) stores[mode].close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
