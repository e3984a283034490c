import type { Protocol, ProtocolRequest } from '@shared/api';
import { ServerClock, observingServerTime } from '@main/api/server-clock';
import { Connectivity, httpProbe } from '@main/sync/connectivity';
import type { LocalStore } from '@main/stores';
import { JobRunner } from '@main/jobs/job-runner';
import { protocolJobs } from '@main/protocols/protocol-job';
import { SyncEngine, type SyncEngineOptions } from '@main/sync/sync-engine';
import { ProtocolCommands } from '@main/protocols/protocol-commands';
import type { Timers } from '@main/timers';
import { startMainFixture, type MainFixture } from './main-fixture';
import { validOrderBody, type TestSandbox } from './sandbox';
import { testActivity } from './activity';

export interface Call {
  method: string;
  path: string;
  url: string;
}

/**
 * A fetch that can be switched off: while `offline` it fails as a refused connection does
 * (TypeError "fetch failed" caused by ECONNREFUSED), before anything is sent. Records each call
 * it lets through.
 */
export function networkSwitch(inner: typeof fetch = globalThis.fetch) {
  const calls: Call[] = [];
  const state = { offline: false };
  const wrapped = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    if (state.offline) {
      const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), {
        code: 'ECONNREFUSED',
      });
      throw new TypeError('fetch failed', { cause });
    }
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push({
      method: (init?.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      url: url.href,
    });
    return inner(input, init);
  }) as typeof fetch;
  return Object.assign(wrapped, {
    calls,
    state,
    count: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path).length,
  });
}

/** Timers driven by hand: advance(ms) fires every timer due within that time, in order. */
export function manualTimers() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void; ms: number }>();
  const scheduled: number[] = [];
  const api: Timers & {
    advance(ms: number): void;
    pending(): { at: number; ms: number }[];
    scheduled: number[];
  } = {
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.set(id, { at: now + ms, fn, ms });
      scheduled.push(ms);
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    pending: () => [...timers.values()].map((t) => ({ at: t.at, ms: t.ms })),
    scheduled,
  };
  return api;
}

/** The system clock plus an offset the test moves (the sandbox keeps real time). */
export function offsetClock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}

export interface SyncHarness extends MainFixture {
  net: ReturnType<typeof networkSwitch>;
  timers: ReturnType<typeof manualTimers>;
  clock: ReturnType<typeof offsetClock>;
  connectivity: Connectivity;
  engine: SyncEngine;
  /** Drafting and conflicts, wired to the engine and the runner as a Session wires them. */
  protocols: ProtocolCommands;
  jobs: JobRunner;
  /** The server's time as the answers told it (as a Session keeps it). */
  serverTime: ServerClock;
}

/**
 * The main fixture plus connectivity (fed by the client's reachability and an HTTP probe of the
 * auth URL) and a SyncEngine, over a fetch that can be switched offline, with manual timers and
 * an API client that never really waits between retries.
 */
export async function startSyncHarness(
  options: { retries?: number; engine?: Partial<SyncEngineOptions> } = {},
): Promise<SyncHarness> {
  const net = networkSwitch();
  const timers = manualTimers();
  const clock = offsetClock();
  const serverTime = new ServerClock(clock);
  let report: (reachable: boolean) => void = () => undefined;
  const fixture = await startMainFixture({
    fetch: observingServerTime(net, serverTime),
    clock,
    client: {
      clock,
      sleep: async () => undefined,
      onReachability: (r) => report(r),
      ...(options.retries === undefined ? {} : { retries: options.retries }),
    },
  });
  const connectivity = new Connectivity({
    bus: fixture.bus,
    probe: httpProbe(fixture.sandbox.authUrl, { fetch: net }),
    clock,
    timers,
  });
  report = connectivity.report;
  let engine: SyncEngine | null = null;
  const jobs = new JobRunner({
    db: fixture.store.db,
    jobs: fixture.store.jobs,
    clock,
    timers,
    kinds: [protocolJobs({ store: fixture.store, client: fixture.client, clock, serverTime })],
    serverNow: () => serverTime.nowIfKnown(),
    online: () => connectivity.online,
    onChanged: (change) => engine?.onJobChanged(change),
  });
  engine = new SyncEngine({
    store: fixture.store,
    client: fixture.client,
    connectivity,
    jobs,
    bus: fixture.bus,
    clock,
    timers,
    ...options.engine,
  });
  const protocols = new ProtocolCommands({
    store: fixture.store,
    activity: testActivity(fixture.store),
    changed: () => {
      engine.emitCounts();
      jobs.wake();
    },
  });
  jobs.start();
  const close = fixture.close;
  return Object.assign(fixture, {
    net,
    timers,
    clock,
    connectivity,
    engine,
    protocols,
    jobs,
    serverTime,
    async close() {
      connectivity.stop();
      await engine.stop();
      await jobs.stop();
      await close();
    },
  });
}

/** A valid protocol request for a patient; `lastName` and `sourceId` tell protocols apart. */
export function protocolRequest(
  lastName: string,
  overrides: { sourceId?: string; quantity?: number; daysSupply?: 30 | 60 | 90 } = {},
): ProtocolRequest {
  const body = validOrderBody({ daysSupply: overrides.daysSupply ?? 30 }) as ProtocolRequest;
  const quantity = overrides.quantity ?? 2;
  return {
    ...body,
    customer: {
      ...body.customer,
      lastName,
      sourceId: overrides.sourceId ?? `src-${lastName.toLowerCase()}`,
    },
    lineItems: [
      {
        productId: 1001,
        quantity,
        packDescription: '1 capsule',
        administration: { morning: quantity, afternoon: 0, evening: 0, sleep: 0 },
      },
      { productId: 1035, quantity: 1, administration: null },
    ],
  };
}

/** Every protocol the server holds (the sandbox API directly, not the app's client). */
export async function serverProtocols(sandbox: TestSandbox): Promise<Protocol[]> {
  const all: Protocol[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const res = await sandbox.api<{ protocols: Protocol[]; cursor: string | null }>(
      'GET',
      `/v1/protocols?limit=100${query}`,
    );
    if (res.status !== 200) throw new Error(`list protocols: ${res.status}`);
    all.push(...res.body.protocols);
    cursor = res.body.cursor;
  } while (cursor);
  return all;
}

/** The server copy of one protocol, or null when it is gone. */
export async function serverProtocol(sandbox: TestSandbox, id: string): Promise<Protocol | null> {
  const res = await sandbox.api<Protocol>('GET', `/v1/protocols/${id}`);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Error(`get protocol: ${res.status}`);
  return res.body;
}

/** Replaces a protocol on the server directly (someone else's edit). */
export async function editOnServer(
  sandbox: TestSandbox,
  id: string,
  body: ProtocolRequest,
): Promise<Protocol> {
  const res = await sandbox.api<Protocol>('PUT', `/v1/protocols/${id}`, body);
  if (res.status !== 200)
    throw new Error(`put protocol: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function deleteOnServer(sandbox: TestSandbox, id: string): Promise<void> {
  const res = await sandbox.api('DELETE', `/v1/protocols/${id}`);
  if (res.status !== 200) throw new Error(`delete protocol: ${res.status}`);
}

/** Protocol changes not done yet (queued, in flight, in doubt or stopped). */
export function liveChanges(store: LocalStore): number {
  const c = store.jobs.counts({ kind: 'protocol' });
  return c.queued + c.sending + c.in_doubt + c.rejected;
}
