/**
 * A status change on the server to the row, at 1,000 active orders: p95 of server move to the
 * poller's store having it, with the poller's requests a minute; OrderPoller, Presence and the
 * sandbox in-process on one simulated clock, so half an hour takes seconds (bench/README.md).
 *
 *   npx tsx bench/status-latency.ts [--orders 1000] [--young 250] [--minutes 30] [--every 3]
 *   npx tsx bench/status-latency.ts --young log     # every age log-spread, as poller-cycle.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createApiClient } from '@main/api/client';
import { TokenManager } from '@main/connections/token-manager';
import { CoreEventBus } from '@main/core-event-bus';
import { OrderPoller } from '@main/orders/order-poller';
import { Presence } from '@main/presence';
import type { Timers } from '@main/timers';
import type { OrderStatus } from '@shared/api';
import { startSandbox } from '@sandbox/index';
import { benchOrderBody } from './bench-orders';
import { benchStore } from './bench-stores';
import { percentile } from './stats';
import { recordFigure } from './report';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000' },
    young: { type: 'string', default: '250' },
    minutes: { type: 'string', default: '30' },
    every: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
  },
});
const ORDERS = Math.round(Number(values.orders));
const MINUTES = Number(values.minutes);
const EVERY_MS = Number(values.every) * 1000;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const LOG_SPREAD = values.young === 'log';
const YOUNG = LOG_SPREAD ? 0 : Math.round(Number(values.young));
if (!LOG_SPREAD && !(YOUNG >= 0 && YOUNG < ORDERS))
  throw new Error('--young: 0 to --orders - 1, or log');
const logSpread = (i: number, n: number, from: number, to: number) =>
  Math.round(from * Math.pow(to / from, n > 1 ? i / (n - 1) : 0));
/**
 * Order i's age (0: newest). `--young N`: N orders spread evenly over the last hour (a batch and
 * the morning's orders), the rest log-spread from 1 h to 14 days; `log`: all log-spread from
 * 1 minute to 14 days, as bench/poller-cycle.ts (41% of them under an hour).
 */
const ageOf = (i: number) =>
  LOG_SPREAD
    ? logSpread(i, ORDERS, MINUTE, 14 * DAY)
    : i < YOUNG
      ? Math.round(MINUTE + (i * (HOUR - 2 * MINUTE)) / Math.max(1, YOUNG - 1))
      : logSpread(i - YOUNG, ORDERS - YOUNG, HOUR, 14 * DAY);

/** The next status of another 1.0.1 class (what a list page or a get can show). */
const NEXT_CLASS: Partial<Record<OrderStatus, OrderStatus>> = {
  NEW: 'PROCESSING',
  PROCESSING: 'FULFILLED',
  FULFILLED: 'AWAITING_SHIPMENT',
};

let seed = Number(values.seed);
/** mulberry32: the same changes at the same times in every run of one seed. */
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const body = (i: number) => benchOrderBody('latency', i);

type Group = 'young' | 'any';
interface Pending {
  at: number;
  group: Group;
  to: OrderStatus;
}

async function main(): Promise<void> {
  let now = Date.parse('2030-06-01T12:00:00Z');
  const clock = { now: () => now };
  const sandbox = await startSandbox(
    { port: 0, autoAdvance: 0, tokenTtl: 10 * 365 * 24 * 3600 },
    { clock, log: () => undefined },
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'order-desk-bench-latency-'));
  const store = benchStore(path.join(dir, 'store.db'), 'encrypted', { clock });
  const requests: number[] = [];
  const fetchCounting: typeof fetch = (input, init) => {
    if (new URL(String(input)).pathname.startsWith('/v1/')) requests.push(now);
    return fetch(input, init);
  };
  const tokens = new TokenManager({
    tokenUrl: sandbox.tokenUrl,
    clientId: sandbox.clientId,
    clientSecret: async () => sandbox.clientSecret,
    fetch: fetchCounting,
  });
  const client = createApiClient({ baseUrl: sandbox.baseUrl, tokens, fetch: fetchCounting });

  // The poller's timers, run by the loop below; the presence's own are never due here.
  const timers: { at: number; fn: () => void }[] = [];
  const pollerTimers: Timers = {
    setTimeout: (fn, ms) => {
      const entry = { at: now + ms, fn };
      timers.push(entry);
      return entry;
    },
    clearTimeout: (handle) => {
      const i = timers.indexOf(handle as (typeof timers)[number]);
      if (i >= 0) timers.splice(i, 1);
    },
  };
  const presence = new Presence({
    clock,
    timers: { setTimeout: () => null, clearTimeout: () => undefined },
    idleAfterMs: Infinity,
  });
  const bus = new CoreEventBus();
  const poller = new OrderPoller({
    store,
    client,
    bus,
    clock,
    timers: pollerTimers,
    pace: presence,
  });

  const pending = new Map<string, Pending>();
  const latencies: Record<Group, number[]> = { young: [], any: [] };
  bus.on('order-status', (event) => {
    const change = pending.get(event.orderId);
    if (!change || event.status !== change.to) return;
    latencies[change.group].push(now - change.at);
    pending.delete(event.orderId);
  });

  /** Runs the poller's timers up to `until`, each cycle finished before the next is looked at. */
  const runUntil = async (until: number) => {
    for (;;) {
      while (timers.length === 0) await new Promise((r) => setImmediate(r));
      const next = timers.reduce((a, b) => (b.at < a.at ? b : a));
      if (next.at > until) break;
      timers.splice(timers.indexOf(next), 1);
      now = Math.max(now, next.at);
      next.fn();
    }
    now = until;
  };

  try {
    const start = now;
    const ids: { id: string; createdAt: number; status: OrderStatus }[] = [];
    for (let i = ORDERS - 1; i >= 0; i--) {
      now = start - ageOf(i);
      const order = await client.createOrder(body(i));
      store.orders.upsert(order, { source: 'created' });
      ids.push({ id: order.id, createdAt: now, status: 'NEW' });
    }
    now = start;
    const token = await tokens.getToken();
    const advance = async (id: string, to: OrderStatus) => {
      const res = await fetch(`${sandbox.origin}/_sandbox/orders/${id}/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to }),
      });
      if (!res.ok) throw new Error(`advance ${id} to ${to}: ${res.status} ${await res.text()}`);
    };

    presence.report({ visible: true, input: true });
    poller.start();
    await runUntil(now + 2 * MINUTE); // every order read once, the schedule settled

    const phase = async (minutes: number, changes: boolean) => {
      const from = now;
      const firstRequest = requests.length;
      const end = now + minutes * MINUTE;
      let nextChange = now + EVERY_MS * -Math.log(1 - random());
      let turn = 0;
      while (now < end) {
        await runUntil(Math.min(end, changes ? nextChange : end));
        if (!changes || now >= end) continue;
        const group: Group = turn++ % 2 === 0 ? 'young' : 'any';
        const movable = ids.filter(
          (o) =>
            NEXT_CLASS[o.status] &&
            !pending.has(o.id) &&
            (group === 'any' || now - o.createdAt < HOUR),
        );
        const pick = movable[Math.floor(random() * movable.length)];
        if (pick) {
          const to = NEXT_CLASS[pick.status]!;
          await advance(pick.id, to);
          pick.status = to;
          pending.set(pick.id, { at: now, group, to });
        }
        nextChange = now + EVERY_MS * -Math.log(1 - random());
      }
      const sent = requests.slice(firstRequest);
      let most = 0;
      for (let i = 0, j = 0; i < sent.length; i++) {
        while (sent[j]! <= sent[i]! - MINUTE) j++;
        most = Math.max(most, i - j + 1);
      }
      return { perMinute: sent.length / ((now - from) / MINUTE), most };
    };

    const shown = await phase(MINUTES, true);
    presence.report({ visible: false, input: false });
    await runUntil(now + MINUTE);
    const hidden = await phase(Math.min(MINUTES, 30), false);

    const p95 = (xs: number[]) => percentile(xs, 95) / SECOND;
    const unseen = pending.size;
    console.log(
      `${ORDERS} active orders, ${LOG_SPREAD ? 'ages 1 min to 14 days (log-spread)' : `${YOUNG} under 1 h, the rest 1 h to 14 days (log-spread)`}; a change every ${EVERY_MS / SECOND} s on average for ${MINUTES} simulated minutes, window shown`,
    );
    for (const group of ['young', 'any'] as const) {
      const xs = latencies[group];
      console.log(
        `${group === 'young' ? 'orders under 1 h' : 'any active order'}: ${xs.length} changes, p50 ${(percentile(xs, 50) / SECOND).toFixed(1)} s, p95 ${p95(xs).toFixed(1)} s, max ${(Math.max(...xs) / SECOND).toFixed(1)} s`,
      );
    }
    console.log(
      `requests: shown ${shown.perMinute.toFixed(1)}/min (most in any minute ${shown.most}); hidden ${hidden.perMinute.toFixed(1)}/min (most ${hidden.most}); ${unseen} changes not seen by the end`,
    );
    const ages = LOG_SPREAD ? 'ages log-spread' : `${YOUNG} under 1 h`;
    const size = `${ORDERS.toLocaleString('en')} active orders (${ages}), ${MINUTES} simulated minutes, a change every ${EVERY_MS / SECOND} s`;
    recordFigure({
      id: 'status.change-to-row-p95',
      value: p95(latencies.young),
      detail: `${size}; ${latencies.young.length} changes of orders under 1 h; ${shown.perMinute.toFixed(1)} requests/min (most ${shown.most})`,
    });
    recordFigure({
      id: 'status.requests-per-minute',
      value: shown.perMinute,
      detail: `${size}; most in any minute ${shown.most}; hidden ${hidden.perMinute.toFixed(1)}/min`,
    });
    recordFigure({
      id: 'status.any-order-p95',
      value: p95(latencies.any),
      detail: `${size}; ${latencies.any.length} changes of any active order`,
    });
  } finally {
    await poller.stop();
    presence.stop();
    store.close();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
