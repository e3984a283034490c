/**
 * The order queue's reads in the main process at 100,000 orders (bench/README.md, "Order queue"):
 * OrdersRepo.list at the top, middle and end of the queue, filtered and searched, the total
 * (count) and the counts per status, cold (right after a write to the store) and on the next
 * page (nothing written since). Each figure is the median of --runs calls.
 *
 *   npx tsx bench/order-queue-store.ts [--count 100000] [--runs 9] [--db /tmp/orders.db]
 *
 * --db keeps the store in that file and reuses it on the next run (when it holds --count orders).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalStore } from '../src/main/stores';
import type { OrderQuery } from '../src/main/orders/orders-repo';
import { insertBenchOrders } from './order-queue-data';
import { recordFigure } from './report';
import { median, positiveIntegers } from './stats';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '9' },
    db: { type: 'string' },
  },
});
const { count, runs } = positiveIntegers({ count: values.count, runs: values.runs });

const tmp = values.db ? null : mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-queue-'));
const file = values.db ?? path.join(tmp!, 'order-desk.db');
const reuse = existsSync(file);
const store = createLocalStore(file);
try {
  if (!reuse || store.orders.count() !== count) {
    const start = performance.now();
    insertBenchOrders(store, count);
    console.log(`${count} orders inserted in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  } else console.log(`reusing ${file} (${count} orders)`);
  console.log(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}\n`,
  );

  /** A write the counts must see (the poll schedule of the newest order): the next count is cold. */
  const touch = (): void => {
    store.orders.schedulePoll('ord_bench00000000', { nextPollAt: null, polledAt: Date.now() });
  };
  const medianOf = (fn: () => unknown, before?: () => void): number => {
    const times: number[] = [];
    fn(); // warm: statements prepared, pages cached
    for (let r = 0; r < runs; r++) {
      before?.();
      const start = performance.now();
      fn();
      times.push(performance.now() - start);
    }
    return median(times);
  };
  const row = (what: string, ms: number): void =>
    console.log(`${what.padEnd(58)} ${ms.toFixed(2).padStart(8)} ms`);

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
  const size = `${count.toLocaleString('en')} orders, median of ${runs} calls`;
  for (const [what, q] of lists) {
    const ms = medianOf(() => store.orders.list(q));
    row(what, ms);
    if (q.offset === count / 2 && !q.statuses && !q.search)
      recordFigure({ id: 'orders-store.list-middle', value: ms, detail: size });
  }

  const counts: [string, Omit<OrderQuery, 'limit' | 'offset'>][] = [
    ['count, no filter', {}],
    ["count search 'hopper'", { search: 'hopper' }],
    ["count search 'ada hopper'", { search: 'ada hopper' }],
    ["count DELIVERED search 'hopper'", { statuses: ['DELIVERED'], search: 'hopper' }],
  ];
  for (const [what, q] of counts) {
    const cold = medianOf(() => store.orders.count(q), touch);
    row(`${what}, cold`, cold);
    if (q.search === 'hopper' && !q.statuses)
      recordFigure({
        id: 'orders-store.count-search-cold',
        value: cold,
        detail: `${size}, search 'hopper'`,
      });
    row(
      `${what}, next page`,
      medianOf(() => store.orders.count(q)),
    );
  }
  for (const [what, q] of [
    ['countByStatus, no filter', {}],
    ["countByStatus search 'hopper'", { search: 'hopper' }],
  ] as const) {
    row(
      `${what}, cold`,
      medianOf(() => store.orders.countByStatus(q), touch),
    );
    row(
      `${what}, unchanged`,
      medianOf(() => store.orders.countByStatus(q)),
    );
  }
  console.log(
    `\nload average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  store.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}
