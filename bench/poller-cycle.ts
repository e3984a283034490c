/**
 * Status polling of 1,000 active orders of mixed ages: API requests per poll cycle with the
 * hybrid plan (list pages or gets, whichever sees more for less) against one get per due order,
 * and how many one-minute cycles pass before every order's change is seen after each order has
 * moved once. Runs the sandbox in-process on a fake clock, so a simulated day takes seconds
 * (bench/README.md).
 *
 *   npx tsx bench/poller-cycle.ts [--orders 1000] [--budget 60] [--hours 6]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient } from '@main/api/client';
import { TokenManager } from '@main/connections/token-manager';
import { CoreEventBus } from '@main/core-event-bus';
import { OrderPoller } from '@main/orders/order-poller';

import { startSandbox } from '@sandbox/index';
import { benchOrderBody } from './bench-orders';
import { benchStore } from './bench-stores';
import { recordFigure } from './report';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000' },
    budget: { type: 'string', default: '60' },
    hours: { type: 'string', default: '6' },
  },
});
const ORDERS = Math.round(Number(values.orders));
const BUDGET = Math.round(Number(values.budget));
const HOURS = Number(values.hours);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Ages spread evenly on a log scale from 1 minute to 14 days: every band of the schedule is populated. */
const ageOf = (i: number) => Math.round(MINUTE * Math.pow((14 * DAY) / MINUTE, i / (ORDERS - 1)));

const body = (i: number) => benchOrderBody('poll', i);

interface Result {
  strategy: 'hybrid' | 'get';
  firstCycle: { requests: number; polled: number; due: number };
  cyclesToPollAll: number;
  steady: { cycles: number; mean: number; max: number; budgetFull: number };
  change: { cycles: number; requests: number };
}

async function scenario(strategy: 'hybrid' | 'get'): Promise<Result> {
  let now = Date.parse('2030-06-01T12:00:00Z');
  const clock = { now: () => now };
  const sandbox = await startSandbox(
    { port: 0, autoAdvance: 0, tokenTtl: 10 * 365 * 24 * 3600 },
    { clock, log: () => undefined },
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-poll-'));
  const store = benchStore(path.join(dir, 'store.db'), 'encrypted', { clock });
  let requests = 0;
  const fetchCounting: typeof fetch = (input, init) => {
    if (new URL(String(input)).pathname.startsWith('/v1/')) requests++;
    return fetch(input, init);
  };
  const tokens = new TokenManager({
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
    clientSecret: async () => sandbox.clientSecret,
    fetch: fetchCounting,
  });
  const client = createApiClient({ baseUrl: sandbox.baseUrl, tokens, fetch: fetchCounting });
  const poller = new OrderPoller({
    store,
    client,
    bus: new CoreEventBus(),
    clock,
    budgetPerMinute: BUDGET,
    strategy,
  });
  try {
    // Oldest first, moving the clock forward, so that ids and list order follow creation time.
    const start = now;
    const ids: string[] = [];
    for (let i = ORDERS - 1; i >= 0; i--) {
      now = start - ageOf(i);
      const order = await client.createOrder(body(i));
      store.orders.upsert(order, { source: 'created' });
      ids.push(order.id);
    }
    now = start;
    const cycle = async () => {
      const before = requests;
      const report = await poller.pollOnce();
      now += MINUTE;
      return { report, requests: requests - before };
    };

    const first = await cycle();
    const neverRead = () =>
      (
        store.db.prepare('SELECT COUNT(*) AS n FROM orders WHERE last_polled_at IS NULL').get() as {
          n: number;
        }
      ).n;
    let cyclesToPollAll = 1;
    while (neverRead() > 0 && cyclesToPollAll < 1000) {
      await cycle();
      cyclesToPollAll++;
    }

    const steady: number[] = [];
    for (let m = 0; m < HOURS * 60; m++) steady.push((await cycle()).requests);

    // Every order moves one step on the server (NEW -> PROCESSING: CREATED -> PROCESSING in 1.0.1).
    const token = await tokens.getToken();
    for (const id of ids) {
      await fetch(`${sandbox.origin}/_sandbox/orders/${id}/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
    }
    const unseen = () =>
      (
        store.db.prepare("SELECT COUNT(*) AS n FROM orders WHERE status = 'NEW'").get() as {
          n: number;
        }
      ).n;
    let changeCycles = 0;
    const changeStart = requests;
    while (unseen() > 0 && changeCycles < 24 * 60) {
      await cycle();
      changeCycles++;
    }
    return {
      strategy,
      firstCycle: { requests: first.requests, polled: first.report.polled, due: first.report.due },
      cyclesToPollAll,
      steady: {
        cycles: steady.length,
        mean: steady.reduce((a, b) => a + b, 0) / steady.length,
        max: Math.max(...steady),
        budgetFull: steady.filter((r) => r >= BUDGET).length,
      },
      change: { cycles: changeCycles, requests: requests - changeStart },
    };
  } finally {
    await poller.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `${ORDERS} active orders, ages 1 min to 14 days (log-spread), budget ${BUDGET} requests/minute, one cycle a minute`,
  );
  const results = [await scenario('hybrid'), await scenario('get')];
  for (const r of results) {
    console.log(
      `${r.strategy.padEnd(6)}: first cycle (${r.firstCycle.due} due) ${r.firstCycle.requests} requests, ${r.firstCycle.polled} orders read; ` +
        `cycles until every order was read once: ${r.cyclesToPollAll}; ` +
        `steady state over ${r.steady.cycles} cycles: mean ${r.steady.mean.toFixed(1)} requests/cycle, max ${r.steady.max}, ` +
        `${r.steady.budgetFull} cycles at the budget; ` +
        `after every order moved once: ${r.change.cycles} cycles and ${r.change.requests} requests until all ${ORDERS} changes were seen`,
    );
  }
  const [h, g] = results;
  console.log(
    `ratio get/hybrid: requests per steady cycle ${(g!.steady.mean / h!.steady.mean).toFixed(1)}x, ` +
      `cycles to see every change ${(g!.change.cycles / Math.max(1, h!.change.cycles)).toFixed(1)}x`,
  );
  const size = `${ORDERS.toLocaleString('en')} orders, budget ${BUDGET}/min, ${HOURS} simulated hours`;
  recordFigure({
    id: 'poller.steady-requests',
    value: h!.steady.mean,
    detail: `${size}; max ${h!.steady.max}, ${h!.steady.budgetFull} cycles at the budget; first cycle ${h!.firstCycle.requests} requests`,
  });
  recordFigure({
    id: 'poller.get-vs-hybrid-steady',
    value: g!.steady.mean / h!.steady.mean,
    parts: [
      { label: 'get per order', value: g!.steady.mean, unit: 'requests' },
      { label: 'hybrid', value: h!.steady.mean, unit: 'requests' },
    ],
    detail: size,
  });
  recordFigure({
    id: 'poller.change-cycles',
    value: h!.change.cycles,
    detail: `${size}; ${h!.change.requests} requests (one get per order: ${g!.change.cycles} cycles, ${g!.change.requests} requests)`,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
