/**
 * The order queue's CSV export at 100,000 orders (bench/README.md, "Order queue CSV export"):
 * exportOrdersCsv over every order and over a filtered queue, as orders.exportCsv runs it; the
 * median of --runs exports, and the heap's growth over one (with --expose-gc). --store plain:
 * the same on a store unencrypted, to compare.
 *
 *   npx tsx bench/order-export.ts [--count 100000] [--runs 3] [--store plain]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { exportOrdersCsv } from '@main/orders/order-export';
import type { OrderQuery } from '@main/orders/orders-repo';
import { benchStore, type StoreMode } from './bench-stores';
import { goalOf } from './goals';
import { insertBenchOrders } from './order-queue-data';
import { recordFigure } from './report';
import { median, positiveIntegers } from './stats';

const GOAL_MS = goalOf('orders-export.all').target;
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    /** The app's store is encrypted; 'plain' runs the same bench on it unencrypted, to compare. */
    store: { type: 'string', default: 'encrypted' },
  },
});
const { count, runs } = positiveIntegers({ count: values.count, runs: values.runs });
if (values.store !== 'encrypted' && values.store !== 'plain')
  throw new Error('--store takes encrypted or plain');
const storeMode: StoreMode = values.store;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-export-'));
const store = benchStore(path.join(tmp, 'order-desk.db'), storeMode); // encrypted, as the app's
try {
  const now = Date.now();
  const insertStart = performance.now();
  insertBenchOrders(store, count, now);
  console.log(
    `${count} orders inserted (${storeMode}) in ${((performance.now() - insertStart) / 1000).toFixed(1)} s; ` +
      `load average ${os
        .loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}\n`,
  );

  const gc = (globalThis as { gc?: () => void }).gc;
  const measure = (name: string, query: Omit<OrderQuery, 'limit' | 'offset'>) => {
    const times: number[] = [];
    let rows = 0;
    let bytes = 0;
    let heapGrowth = 0;
    for (let r = 0; r < runs; r++) {
      gc?.();
      const heapBefore = process.memoryUsage().heapUsed;
      const start = performance.now();
      const result = exportOrdersCsv(store.orders, query);
      times.push(performance.now() - start);
      heapGrowth = Math.max(heapGrowth, process.memoryUsage().heapUsed - heapBefore);
      rows = result.rows;
      bytes = Buffer.byteLength(result.csv);
    }
    const ms = median(times);
    const usPerRow = (ms / Math.max(1, rows)) * 1000;
    console.log(
      `${name}: ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB of CSV, ` +
        `median ${ms.toFixed(0)} ms of ${runs} (${usPerRow < 1 ? '<1' : usPerRow.toFixed(1)} µs/row), ` +
        `heap growth ${(heapGrowth / 1e6).toFixed(0)} MB${gc ? '' : ' (no --expose-gc: rough)'}`,
    );
    return { median: ms, rows, bytes, heapGrowth };
  };

  const every = measure('every order', {});
  const filtered = measure('SHIPPED, search "ada"', { statuses: ['SHIPPED'], search: 'ada' });
  const all = every.median;
  const detail = (m: typeof every) =>
    `${m.rows.toLocaleString('en')} rows, ${(m.bytes / 1e6).toFixed(1)} MB of CSV, median of ${runs}`;
  recordFigure({ id: 'orders-export.all', value: all, detail: detail(every) });
  recordFigure({
    id: 'orders-export.all-heap',
    value: every.heapGrowth / 1e6,
    detail: `${detail(every)}${gc ? '' : ' (no --expose-gc: rough)'}`,
  });
  recordFigure({ id: 'orders-export.filtered', value: filtered.median, detail: detail(filtered) });
  console.log(
    `\nGoal: the whole queue (${count.toLocaleString('en')} orders) exported in < ${GOAL_MS} ms: ` +
      `${all.toFixed(0)} ms, ${all < GOAL_MS ? 'PASS' : 'FAIL'}`,
  );
} finally {
  store.close();
  rmSync(tmp, { recursive: true, force: true });
}
