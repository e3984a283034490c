import { afterEach, describe, expect, it } from 'vitest';
import { startBulk, type BulkStack } from '@test/support/bulk-stack';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { setFaults } from '@test/support/client-harness';
import { clearFaults, createLocalProtocols, expectOneOrderPerProtocol } from '@test/support/bulk';

const N = 20;
let fx: MainFixture | null = null;
let bulk: BulkStack | null = null;

afterEach(async () => {
  await bulk?.stop();
  await fx?.close();
  fx = null;
  bulk = null;
});

/** Submits N fresh protocols under `faults`, clears the faults, and checks the outcome. */
async function runUnderFaults(tag: string, faults: Record<string, unknown>) {
  fx = await startMainFixture({ client: { sleep: async () => undefined } });
  const log: string[] = [];
  bulk = startBulk(fx, { inDoubtGraceMs: 150, log: (line) => log.push(line) });
  const { submitter } = bulk;
  const ids = createLocalProtocols(fx.store, N, tag);
  await setFaults(fx.sandbox, faults);
  const batchId = submitter.submit(ids, { concurrency: 4 });
  const final = await submitter.settled(batchId);
  const injected = (await fx.sandbox.api('GET', '/_sandbox/faults')).body.injected as number;
  await clearFaults(fx.sandbox);

  expect(final).toMatchObject({ state: 'done', total: N, created: N, rejected: 0 });
  await expectOneOrderPerProtocol(fx.sandbox, fx.store, batchId, `${tag}-`);
  const events = fx.eventsOf('batch-progress').filter((e) => e.batchId === batchId);
  expect(events.at(-1)).toMatchObject({ state: 'done', created: N });
  return { batchId, injected, log, items: fx.store.batches.items(batchId) };
}

describe('bulk submission under injected faults: exactly one order per protocol', () => {
  it('latency', async () => {
    const { items } = await runUnderFaults('lat', {
      latencyMs: 120,
      match: { method: 'POST', path: '/v1/orders' },
    });
    expect(items.every((i) => i.attempts === 1)).toBe(true);
  });

  it('503 on 30% of creates (not sent: requeued, never in doubt)', async () => {
    const { injected, items, log } = await runUnderFaults('u503', {
      errorRate: 0.3,
      errorStatus: 503,
      match: { method: 'POST', path: '/v1/orders' },
    });
    expect(injected).toBeGreaterThan(0);
    expect(log.some((l) => l.startsWith('reconciled'))).toBe(false);
    expect(items.every((i) => i.state === 'done')).toBe(true);
  });

  it('500 on 30% of every /v1/orders request (creates in doubt, reconciliation reads failing too)', async () => {
    const { injected, log } = await runUnderFaults('e500', {
      errorRate: 0.3,
      errorStatus: 500,
      match: { path: '/v1/orders' },
    });
    expect(injected).toBeGreaterThan(0);
    // 500 answers before anything is written: reconciliation finds no order and the item is resent.
    expect(log.some((l) => /reconciled .* [1-9]\d* to resend/.test(l))).toBe(true);
  });

  it('responses dropped after commit on 30% of creates (in doubt, found by reconciliation, not resent)', async () => {
    const { injected, log, items } = await runUnderFaults('drop', {
      dropResponseRate: 0.3,
      match: { method: 'POST', path: '/v1/orders' },
    });
    expect(injected).toBeGreaterThan(0);
    expect(log.some((l) => /reconciled .*: [1-9]\d* found/.test(l))).toBe(true);
    // A dropped response committed: its item was never sent twice.
    expect(items.filter((i) => i.attempts > 1)).toHaveLength(0);
  });
});
