import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '@main/clock';
import { Redactor, silentLogger } from '@main/logging';
import { Session } from '@main/connection-session';
import type { Protocol } from '@shared/api';
import {
  allServerOrders,
  clearFaults,
  createLocalProtocols,
  expectOneOrderPerProtocol,
} from '@test/support/bulk';
import { setFaults } from '@test/support/client-harness';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { serverProtocols } from '@test/support/sync-harness';
import { waitFor } from '@test/support/wait';
import { sessionActivity } from '@test/support/activity';

/**
 * Every write to the server under injected faults, through a whole Session (its job runner,
 * sync and bulk submission as the app wires them): 200 local drafts are pushed as protocols and
 * submitted as one batch at once, and in the end, without a restart, the server holds one
 * protocol and one order per draft, every job is settled, and the store agrees with the server.
 */
const N = 200;
const ALL_WRITES = { method: 'POST', path: '/v1/' };

let fx: MainFixture | null = null;
let session: Session | null = null;
afterEach(async () => {
  await session?.stop();
  await fx?.close();
  session = null;
  fx = null;
});

async function runMix(
  tag: string,
  faults: Record<string, unknown>,
  options: { timeoutMs?: number; then?: Record<string, unknown> } = {},
) {
  fx = await startMainFixture();
  const f = fx;
  const s = new Session({
    connection: f.connection,
    clientSecret: async () => f.sandbox.clientSecret,
    store: f.store,
    bus: f.bus,
    log: process.env.FAULTS_LOG
      ? ({
          ...silentLogger,
          info: (m: string) => console.error(m),
          child: function () {
            return this;
          },
        } as never)
      : silentLogger,
    redactor: new Redactor(),
    clock: systemClock,
    ...sessionActivity(f.store),
    tuning: {
      client: { sleep: async () => undefined, timeoutMs: options.timeoutMs ?? 5_000 },
      inDoubtGraceMs: { protocol: 1_000, order: 1_000 },
      probeBackoffMs: 50,
    },
  });
  session = s;
  // Every tenth protocol is the twin of the one before (the same patient and content).
  const ids = createLocalProtocols(f.store, N, tag, { twinEvery: 10 });
  await setFaults(f.sandbox, faults);
  s.start();
  const batchId = s.bulk.submit(ids, { concurrency: 8 });
  if (options.then) {
    // A second fault mix once a third of the batch went through.
    await waitFor(() => s.bulk.progress(batchId).created >= N / 3, 60_000, 'a third created');
    await setFaults(f.sandbox, options.then);
  }
  let state = '';
  await waitFor(
    async () => {
      await s.sync.syncNow();
      const changes = f.store.jobs.counts({ kind: 'protocol' });
      const pending = changes.queued + changes.sending + changes.in_doubt + changes.rejected;
      const progress = s.bulk.progress(batchId);
      state = JSON.stringify({ changes, progress });
      return progress.state === 'done' && pending === 0;
    },
    // Convergence, not speed: a create in doubt several times in a row waits out each round's
    // reconciliation, and on a loaded machine a round takes long; what must hold is the outcome.
    150_000,
    () => `every protocol pushed and every order created (last: ${state})`,
    200,
  );
  const injected = (await f.sandbox.api('GET', '/_sandbox/faults')).body.injected as number;
  await clearFaults(f.sandbox);
  await s.sync.syncNow(); // the mirror, now that every read goes through

  // One order per protocol, every item done, the mirror holding each order.
  expect(s.bulk.progress(batchId)).toMatchObject({ state: 'done', created: N, rejected: 0 });
  await expectOneOrderPerProtocol(f.sandbox, f.store, batchId, `${tag}-`);
  // One server protocol per local protocol, each local one synced with it.
  const server = (await serverProtocols(f.sandbox)).filter((p: Protocol) =>
    p.customer.sourceId.startsWith(`${tag}-`),
  );
  expect(server).toHaveLength(N);
  // Every tenth protocol but the first (10, 20, ... 190) repeats its neighbour's patient.
  expect(new Set(server.map((p) => p.customer.sourceId)).size).toBe(N - (N / 10 - 1));
  // Every protocol drafted is still there under its own local id, linked to its own server
  // protocol (twins included: none took the other's copy, none was merged away).
  const local = ids.map((id) => f.store.protocols.get(id));
  expect(local.every((p) => p?.syncState === 'synced' && p.change === null)).toBe(true);
  expect(new Set(local.map((p) => p!.serverId)).size).toBe(N);
  expect(new Set(local.map((p) => p!.serverId))).toEqual(new Set(server.map((p) => p.id)));
  expect(f.store.protocols.count({ includeDeleted: true })).toBe(N);
  // The store and the server agree on the orders.
  const orders = (await allServerOrders(f.sandbox)).filter((o) =>
    String(o.customer.sourceId).startsWith(`${tag}-`),
  );
  for (const o of orders)
    expect(f.store.orders.get(o.id)?.customer.sourceId).toBe(o.customer.sourceId);
  return { injected };
}

describe(`${N} drafts pushed and submitted under faults: one protocol and one order each`, () => {
  it('responses dropped after commit on 30% of writes', { timeout: 180_000 }, async () => {
    const { injected } = await runMix('drop', { dropResponseRate: 0.3, match: ALL_WRITES });
    expect(injected).toBeGreaterThan(0);
  });

  it('500 on 30% of every request, reads included', { timeout: 180_000 }, async () => {
    const { injected } = await runMix('e500', { errorRate: 0.3, errorStatus: 500 });
    expect(injected).toBeGreaterThan(0);
  });

  it('503 on 30% of every request, with drops after commit', { timeout: 180_000 }, async () => {
    const { injected } = await runMix('u503', {
      errorRate: 0.3,
      errorStatus: 503,
      dropResponseRate: 0.2,
    });
    expect(injected).toBeGreaterThan(0);
  });

  it('429 on 30% of requests, then 502', { timeout: 180_000 }, async () => {
    await runMix(
      'r429',
      { errorRate: 0.3, errorStatus: 429 },
      { then: { errorRate: 0.3, errorStatus: 502 } },
    );
  });

  it('60% of every answer dropped, reads included', { timeout: 180_000 }, async () => {
    const { injected } = await runMix('drop60', { dropResponseRate: 0.6 });
    expect(injected).toBeGreaterThan(0);
  });

  it('every write commits after the client gave up waiting', { timeout: 180_000 }, async () => {
    await runMix('slow', { latencyMs: 400, match: ALL_WRITES }, { timeoutMs: 250 });
  });
});
