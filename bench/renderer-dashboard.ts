/**
 * The dashboard at 100,000 orders in Chromium through the browser host: its first paint (from
 * the hash change to the orders' table and chart in the DOM, the screen opened afresh each
 * time) and its re-read after a status change (from the write in main's store to the cancelled
 * figure changing in the page), against goals.ts; and `dashboardSummary` in the store alone.
 *
 *   npm run bench:renderer:dashboard                 # builds, then runs under a real keychain
 *   npx tsx bench/renderer-dashboard.ts --orders 5000 --opens 5 --changes 5   # without a rebuild
 */
import type { Page } from '@playwright/test';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { dashboardSummary } from '@main/dashboard/dashboard-summary';
import { startBenchHost } from './browser-host-bench';
import { goalOf } from './goals';
import { benchOrder, insertBenchOrders } from './order-queue-data';
import { recordFigure } from './report';
import { percentile } from './stats';

const GOAL_PAINT_MS = goalOf('dashboard.first-paint-p50').target;
const GOAL_CHANGE_MS = goalOf('dashboard.status-change-p50').target;

const { values } = parseArgs({
  strict: false,
  options: {
    /** Orders in the store (a year of them, bench/order-queue-data.ts). */
    orders: { type: 'string', default: '100000' },
    /** Times the dashboard is opened afresh. */
    opens: { type: 'string', default: '10' },
    /** Status changes written while it is shown. */
    changes: { type: 'string', default: '10' },
  },
});
const orderCount = Number(values.orders);
const opens = Number(values.opens);
const changes = Number(values.changes);
for (const [name, n] of [
  ['--orders', orderCount],
  ['--opens', opens],
  ['--changes', changes],
] as const)
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number above 0`);

/** The page's globals this (Node-typed) file touches inside the page. */
interface Win {
  document: { querySelector(selector: string): { textContent: string | null } | null };
  location: { hash: string };
  performance: { now(): number };
  __paintFrom: number;
}

const ORDERS_TABLE = '.dashboard-orders-table tbody tr:last-child [data-figure="cancelled"]';
const CHART = '.dashboard-screen .bar-chart canvas';

/** Opens the dashboard from another screen; answers the ms from the hash change to its figures. */
async function openDashboard(page: Page): Promise<number> {
  await page.evaluate(() => {
    (globalThis as unknown as Win).location.hash = '#/settings';
  });
  await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  await page.evaluate(() => {
    const w = globalThis as unknown as Win;
    w.__paintFrom = w.performance.now();
    w.location.hash = '#/dashboard';
  });
  const ms = await page.waitForFunction(
    ({ table, chart }) => {
      const w = globalThis as unknown as Win;
      return w.document.querySelector(table) && w.document.querySelector(chart)
        ? w.performance.now() - w.__paintFrom
        : null;
    },
    { table: ORDERS_TABLE, chart: CHART },
    { polling: 'raf', timeout: 30_000 },
  );
  return (await ms.jsonValue()) as number;
}

const cancelledShown = (page: Page) =>
  page.evaluate(
    (sel) => Number((globalThis as unknown as Win).document.querySelector(sel)?.textContent),
    ORDERS_TABLE,
  );

const bench = await startBenchHost('dashboard');
const { host, browser, note } = bench;
try {
  await host.core.useEmbedded();
  await host.core.session!.sync.syncNow();
  const now = Date.now();
  const seedStart = performance.now();
  // Orders with no poll due (order-queue-data.ts): the poller leaves them alone.
  insertBenchOrders(host.core.store, orderCount, now);
  const seedMs = performance.now() - seedStart;
  const inStore = host.core.store.orders.count();

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // tsx (esbuild, keepNames) wraps the functions evaluated below with a __name helper.
  await context.addInitScript('globalThis.__name = (f) => f;');
  const page = await context.newPage();
  await page.goto(host.url);
  await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });

  await openDashboard(page); // warm-up: the screen's code and the first read, not counted
  const paints: number[] = [];
  for (let i = 0; i < opens; i++) paints.push(await openDashboard(page));

  // Status changes while it is shown: this month's newest NEW orders (every eighth, none of the
  // 37th that are cancelled already) cancelled one at a time, each timed from the write in main
  // to the cancelled figure changing in the page.
  const reReads: number[] = [];
  for (let i = 0; i < changes; i++) {
    const before = await cancelledShown(page);
    const n = (i + 1) * 8 * (((i + 1) * 8) % 37 === 0 ? 3 : 1);
    const order = benchOrder(n, orderCount, now);
    const written = Date.now();
    host.core.store.orders.upsert(
      { ...order, status: 'CANCELLED', updatedAt: new Date(now + 1000 + i).toISOString() },
      { source: 'pulled', nextPollAt: null },
    );
    const seen = await page.waitForFunction(
      ({ sel, was }) => {
        const text = (globalThis as unknown as Win).document.querySelector(sel)?.textContent;
        return Number(text) !== was ? Date.now() : null;
      },
      { sel: ORDERS_TABLE, was: before },
      { polling: 'raf', timeout: 30_000 },
    );
    reReads.push(((await seen.jsonValue()) as number) - written);
    // A quiet moment: a live query paces a burst of changes (lib/live-query.ts), and a status
    // change comes alone; the next one is then read at once.
    await page.waitForTimeout(1000);
  }

  const storeMs = Array.from({ length: opens }, () => {
    const t = performance.now();
    dashboardSummary(host.core.store, Date.now());
    return performance.now() - t;
  });
  const fmt = (xs: number[]) =>
    `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`;
  console.log('Dashboard: first paint and re-read after a status change, Chromium via the host');
  console.log(
    `  machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), Node ${process.version}, ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${note}`,
  );
  console.log(
    `  store: ${inStore.toLocaleString('en')} orders over a year (seeded in ${(seedMs / 1000).toFixed(1)} s)`,
  );
  console.log(
    `  hash change -> orders' table and chart in the DOM (${opens} opens): ${fmt(paints)}`,
  );
  console.log(`  status written -> cancelled figure changed (${changes}):      ${fmt(reReads)}`);
  console.log(`  dashboardSummary in the store alone:                        ${fmt(storeMs)}`);
  const size = `${inStore.toLocaleString('en')} orders; ${note}`;
  const paint = percentile(paints, 50);
  const change = percentile(reReads, 50);
  recordFigure({
    id: 'dashboard.first-paint-p50',
    value: paint,
    detail: `${size}; ${opens} opens, ${fmt(paints)}`,
  });
  recordFigure({
    id: 'dashboard.status-change-p50',
    value: change,
    detail: `${size}; ${changes} changes, ${fmt(reReads)}`,
  });
  recordFigure({ id: 'dashboard.store-p50', value: percentile(storeMs, 50), detail: size });
  console.log(
    `  goals: first paint p50 < ${GOAL_PAINT_MS} ms ${paint < GOAL_PAINT_MS ? 'PASS' : 'ABOVE GOAL'}; ` +
      `re-read p50 < ${GOAL_CHANGE_MS} ms ${change < GOAL_CHANGE_MS ? 'PASS' : 'ABOVE GOAL'}`,
  );
  await context.close();
} finally {
  await bench.close();
}
