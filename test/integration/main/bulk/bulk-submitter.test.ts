import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mirrorProtocol } from '@test/support/store-fixtures';
import type { BulkSubmitter } from '@main/bulk/bulk-submitter';
import { startBulk, type BulkStack } from '@test/support/bulk-stack';
import { BatchRejectedError } from '@main/orders/order-requests';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';
import { waitFor } from '@test/support/wait';
import {
  createLocalProtocols,
  expectOneOrderPerProtocol,
  protocolFor,
  serverOrdersBySourceId,
} from '@test/support/bulk';

let fx: MainFixture;
let bulk: BulkStack;
let submitter: BulkSubmitter;

beforeEach(async () => {
  fx = await startMainFixture();
  bulk = startBulk(fx, { inDoubtGraceMs: 100, progressIntervalMs: 20 });
  submitter = bulk.submitter;
});

afterEach(async () => {
  await bulk.stop();
  await fx.close();
});

describe('bulk submission', () => {
  it('turns 20 protocols (synced and local) into 20 orders, with monotonic progress ending done', async () => {
    // 10 protocols created on the server and mirrored, 10 local drafts never synced.
    const synced: string[] = [];
    for (let i = 0; i < 10; i++) {
      const server = await fx.client.createProtocol(protocolFor(`happy-s${i}`));
      synced.push(mirrorProtocol(fx.store, server).localId);
    }
    const local = createLocalProtocols(fx.store, 10, 'happy-l');
    const ids = [...synced, ...local];

    const batchId = submitter.submit(ids, { concurrency: 4 });
    const final = await submitter.settled(batchId);

    expect(final).toMatchObject({ batchId, state: 'done', total: 20, created: 20, rejected: 0 });
    await expectOneOrderPerProtocol(fx.sandbox, fx.store, batchId, 'happy-');
    const items = fx.store.batches.items(batchId);
    expect(items.map((i) => i.protocolLocalId)).toEqual(ids);
    for (const item of items) {
      const order = fx.store.orders.get(item.orderId!)!;
      expect(order.status).toBe('NEW');
      expect(order.statusPrecision).toBe('exact');
    }

    const events = fx.eventsOf('batch-progress').filter((e) => e.batchId === batchId);
    expect(events.length).toBeGreaterThan(1);
    for (let i = 1; i < events.length; i++) {
      const before = events[i - 1]!;
      const now = events[i]!;
      expect(now.created + now.rejected).toBeGreaterThanOrEqual(before.created + before.rejected);
    }
    expect(events.at(-1)).toMatchObject({
      state: 'done',
      created: 20,
      queued: 0,
      sending: 0,
      inDoubt: 0,
    });
    expect(events.filter((e) => e.state === 'done')).toHaveLength(1);
  });

  it('submits the current draft of a protocol with local unsynced edits', async () => {
    const server = await fx.client.createProtocol(protocolFor('edited-0'));
    const { localId } = mirrorProtocol(fx.store, server);
    fx.store.protocols.updateDraft(
      localId,
      protocolFor('edited-0', { daysSupply: 90, shippingMethod: 'EXPRESS' }),
    );
    expect(fx.store.protocols.get(localId)?.syncState).toBe('pending');

    const batchId = submitter.submit([localId]);
    await submitter.settled(batchId);

    const item = fx.store.batches.items(batchId)[0]!;
    expect(item.state).toBe('done');
    const res = await fx.sandbox.api('GET', `/v1/orders/${item.orderId}`);
    expect(res.body).toMatchObject({ daysSupply: 90, shippingMethod: 'EXPRESS' });
  });

  it('gives a pack line without a packDescription the one of the server copy', async () => {
    const base = protocolFor('packdesc-0');
    const withDescription = {
      ...base,
      lineItems: [
        { ...base.lineItems[0]!, packDescription: '2 softgels with dinner' },
        base.lineItems[1]!,
      ],
    };
    const server = await fx.client.createProtocol(withDescription);
    const { localId } = mirrorProtocol(fx.store, server);
    const { packDescription: _dropped, ...packLine } = withDescription.lineItems[0]!;
    fx.store.protocols.updateDraft(localId, {
      ...withDescription,
      lineItems: [packLine, withDescription.lineItems[1]!],
    });

    const batchId = submitter.submit([localId]);
    await submitter.settled(batchId);

    const item = fx.store.batches.items(batchId)[0]!;
    expect(item.request.lineItems[0]!.packDescription).toBe('2 softgels with dinner');
    expect(item.state).toBe('done');
    const res = await fx.sandbox.api('GET', `/v1/orders/${item.orderId}`);
    expect((res.body as { lineItems: { packDescription: string }[] }).lineItems[0]).toMatchObject({
      packDescription: '2 softgels with dinner',
    });
  });

  it('rejects the item whose product was discontinued with the server 422 location; the others are created', async () => {
    const ids = createLocalProtocols(fx.store, 3, 'disc');
    const special = fx.store.protocols.createDraft(
      protocolFor('disc-x', {
        lineItems: [
          { productId: 1035, quantity: 1, administration: null },
          {
            productId: 1002,
            quantity: 1,
            packDescription: '1 softgel',
            administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
          },
        ],
      }),
    ).localId;
    const patched = await fx.sandbox.api('PATCH', '/_sandbox/products/1002', {
      status: 'DISCONTINUED',
    });
    expect(patched.status).toBe(200);

    const batchId = submitter.submit([...ids, special]);
    const final = await submitter.settled(batchId);

    expect(final).toMatchObject({ state: 'done', created: 3, rejected: 1 });
    const rejected = fx.store.batches.items(batchId).find((i) => i.protocolLocalId === special)!;
    expect(rejected.state).toBe('rejected');
    expect(rejected.orderId).toBeNull();
    expect(rejected.error).toMatchObject({
      kind: 'validation',
      issues: [
        expect.objectContaining({ loc: ['body', 'lineItems', 1, 'productId'], type: 'invalid' }),
      ],
    });
    const server = await serverOrdersBySourceId(fx.sandbox, 'disc-');
    expect([...server.keys()].sort()).toEqual(['disc-0', 'disc-1', 'disc-2']);
  });

  it('refuses a batch with an incomplete or unknown protocol, naming each problem, and creates nothing', async () => {
    const good = createLocalProtocols(fx.store, 1, 'inc')[0]!;
    // A server protocol with its days supply and shipping decided on the subscription (null).
    const server = await fx.client.createProtocol(protocolFor('inc-null'));
    const incomplete = mirrorProtocol(fx.store, {
      ...server,
      daysSupply: null,
      shippingMethod: null,
    }).localId;

    let error: unknown;
    try {
      submitter.submit([good, incomplete, 'no-such-protocol']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BatchRejectedError);
    const rejected = (error as BatchRejectedError).rejected;
    expect(rejected.map((r) => r.protocolLocalId)).toEqual([incomplete, 'no-such-protocol']);
    expect(rejected[0]!.problems.map((p) => p.path).sort()).toEqual([
      'daysSupply',
      'shippingMethod',
    ]);
    expect(rejected[0]!.problems[0]!.message).toMatch(/not set/);
    expect(rejected[1]!.problems[0]!.message).toBe('no such protocol');
    expect((error as Error).message).toContain('inc-null');
    expect(fx.store.batches.list()).toHaveLength(0);
    expect((await serverOrdersBySourceId(fx.sandbox, 'inc')).size).toBe(0);
  });

  it('pauses a batch (nothing more is sent) and continues it to the end', async () => {
    const ids = createLocalProtocols(fx.store, 12, 'pause');
    await fx.sandbox.api('PUT', '/_sandbox/faults', {
      latencyMs: 50,
      match: { method: 'POST', path: '/v1/orders' },
    });
    const batchId = submitter.submit(ids, { concurrency: 2 });
    submitter.pause(batchId);
    // The creates in flight at the pause finish; nothing more is claimed.
    const paused = await waitFor(
      () => {
        const p = submitter.progress(batchId);
        return p.sending === 0 ? p : null;
      },
      5_000,
      'the creates in flight to finish',
    );
    expect(paused.state).toBe('paused');
    await new Promise((r) => setTimeout(r, 200));
    expect(submitter.progress(batchId).created).toBe(paused.created);
    const createdAtPause = paused.created;
    expect(createdAtPause).toBeLessThan(12);
    expect(paused.queued).toBe(12 - createdAtPause);
    expect((await serverOrdersBySourceId(fx.sandbox, 'pause-')).size).toBe(createdAtPause);

    submitter.continue(batchId);
    const final = await submitter.settled(batchId);
    expect(final).toMatchObject({ state: 'done', created: 12 });
    await expectOneOrderPerProtocol(fx.sandbox, fx.store, batchId, 'pause-');
  });

  it('a local write that fails is retried: the order is recorded once, nothing stays sending', async () => {
    // The first two records of a created order fail, as with "database is locked".
    const insertCreated = fx.store.orders.insertCreated.bind(fx.store.orders);
    let failures = 0;
    fx.store.orders.insertCreated = (order) => {
      if (failures < 2) {
        failures++;
        throw new Error('database is locked');
      }
      insertCreated(order);
    };
    const ids = createLocalProtocols(fx.store, 6, 'local-write');
    const batchId = submitter.submit(ids, { concurrency: 2 });
    const final = await submitter.settled(batchId);

    expect(failures).toBe(2);
    expect(final).toMatchObject({ state: 'done', created: 6, inDoubt: 0, sending: 0 });
    await expectOneOrderPerProtocol(fx.sandbox, fx.store, batchId, 'local-write-');
    expect(fx.store.batches.items(batchId).every((i) => i.attempts === 1)).toBe(true);
  });

  it('a local write that keeps failing leaves the job in doubt; reconciliation records the order, never resends it', async () => {
    const insertCreated = fx.store.orders.insertCreated.bind(fx.store.orders);
    const failing = new Set<string>();
    let failures = 0;
    fx.store.orders.insertCreated = (order) => {
      // Every record of the first order fails until its job was left in doubt.
      if (failing.size === 0) failing.add(order.id);
      if (failing.has(order.id) && failures < 5) {
        failures++;
        throw new Error('database is locked');
      }
      insertCreated(order);
    };
    const ids = createLocalProtocols(fx.store, 4, 'stuck-write');
    const batchId = submitter.submit(ids, { concurrency: 1 });
    const final = await submitter.settled(batchId);

    expect(failures).toBe(5);
    expect(final).toMatchObject({ state: 'done', created: 4, inDoubt: 0, sending: 0 });
    await expectOneOrderPerProtocol(fx.sandbox, fx.store, batchId, 'stuck-write-');
    expect(fx.store.batches.items(batchId).every((i) => i.attempts === 1)).toBe(true);
  });
});
