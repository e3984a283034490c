import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BulkSubmitter } from '@main/bulk/bulk-submitter';
import { BatchRejectedError, RetryRefusedError } from '@main/orders/order-requests';
import { createOrder } from '@main/bulk/create-order';
import { startBulk, type BulkStack } from '@test/support/bulk-stack';
import { createLocalProtocols, protocolFor, serverOrdersBySourceId } from '@test/support/bulk';
import { startMainFixture, type MainFixture } from '@test/support/main-fixture';

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

const PACK_1002 = {
  productId: 1002,
  quantity: 1,
  packDescription: '1 softgel',
  administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
};

function refusal(fn: () => void): RetryRefusedError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RetryRefusedError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('retrying a rejected batch item', () => {
  it('freezes the fixed draft anew, reopens the done batch, and creates exactly one order', async () => {
    const [ok] = createLocalProtocols(fx.store, 1, 'retry-ok');
    const special = fx.store.protocols.createDraft(
      protocolFor('retry-x', {
        lineItems: [{ productId: 1035, quantity: 1, administration: null }, PACK_1002],
      }),
    ).localId;
    expect(
      (await fx.sandbox.api('PATCH', '/_sandbox/products/1002', { status: 'DISCONTINUED' })).status,
    ).toBe(200);
    const batchId = submitter.submit([ok!, special]);
    expect(await submitter.settled(batchId)).toMatchObject({ state: 'done', rejected: 1 });
    const done = fx.store.batches.get(batchId)!;
    expect(done.finishedAt).not.toBeNull();

    // Not rejected: refused, nothing changes.
    expect(refusal(() => submitter.retryItem(batchId, 0)).reason).toBe('not-rejected');
    expect(refusal(() => submitter.retryItem(batchId, 7)).reason).toBe('no-item');

    // Still not a complete order locally (a pack line with no packDescription, not in the
    // local catalog): refused with the draft's path, nothing changes.
    fx.store.protocols.updateDraft(
      special,
      protocolFor('retry-x', {
        lineItems: [
          {
            productId: 999_999,
            quantity: 1,
            administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
          },
        ],
      }),
    );
    const incomplete = refusal(() => submitter.retryItem(batchId, 1));
    expect(incomplete.reason).toBe('problems');
    expect(incomplete.problems.map((p) => p.path)).toEqual(['lineItems.0.packDescription']);
    expect(fx.store.batches.item(batchId, 1)!.state).toBe('rejected');
    expect(fx.store.batches.get(batchId)!.state).toBe('done');

    // Fixed in the editor: the external product only.
    fx.store.protocols.updateDraft(
      special,
      protocolFor('retry-x', {
        lineItems: [{ productId: 1035, quantity: 2, administration: null }],
      }),
    );
    submitter.retryItem(batchId, 1);
    const reopened = fx.store.batches.get(batchId)!;
    expect(reopened).toMatchObject({ state: 'running', finishedAt: null });
    const item = fx.store.batches.item(batchId, 1)!;
    expect(item).toMatchObject({ state: 'queued', error: null, protocolLocalId: special });
    expect(item.request.lineItems).toEqual([
      { productId: 1035, quantity: 2, administration: null },
    ]);

    expect(await submitter.settled(batchId)).toMatchObject({
      state: 'done',
      created: 2,
      rejected: 0,
    });
    const server = await serverOrdersBySourceId(fx.sandbox, 'retry-');
    expect([...server.keys()].sort()).toEqual(['retry-ok-0', 'retry-x']);
    expect(server.get('retry-x')).toHaveLength(1);
  });

  it('refuses an item whose protocol is gone', async () => {
    const special = fx.store.protocols.createDraft(
      protocolFor('retry-gone', {
        lineItems: [{ productId: 1035, quantity: 1, administration: null }, PACK_1002],
      }),
    ).localId;
    await fx.sandbox.api('PATCH', '/_sandbox/products/1002', { status: 'DISCONTINUED' });
    const batchId = submitter.submit([special]);
    expect(await submitter.settled(batchId)).toMatchObject({ rejected: 1 });
    fx.store.protocols.forget(special);
    expect(refusal(() => submitter.retryItem(batchId, 0)).reason).toBe('no-protocol');
  });
});

describe('one order (createOrder)', () => {
  const one = () => ({ store: fx.store, bulk: submitter });
  it('from a saved protocol and from scratch, each a batch of one sent once', async () => {
    const [saved] = createLocalProtocols(fx.store, 1, 'one-saved');
    const fromProtocol = createOrder(one(), { protocolLocalId: saved! });
    const scratch = createOrder(one(), { draft: protocolFor('one-scratch') });
    for (const batchId of [fromProtocol, scratch])
      expect(await submitter.settled(batchId)).toMatchObject({ total: 1, created: 1 });
    const [item] = fx.store.batches.items(scratch);
    expect(item).toMatchObject({ protocolLocalId: null, state: 'done' });
    expect(item!.request.customer.sourceId).toBe('one-scratch');
    const server = await serverOrdersBySourceId(fx.sandbox, 'one-');
    expect([...server.keys()].sort()).toEqual(['one-saved-0', 'one-scratch']);
    expect(fx.store.protocols.count()).toBe(1); // scratch made no protocol
  });

  it('refuses a scratch draft that is not a complete order, creating nothing', () => {
    let error: unknown;
    try {
      createOrder(one(), {
        draft: protocolFor('one-bad', {
          lineItems: [
            {
              productId: 999_999,
              quantity: 1,
              administration: { morning: 1, afternoon: 0, evening: 0, sleep: 0 },
            },
          ],
        }),
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BatchRejectedError);
    expect((error as BatchRejectedError).rejected[0]!.problems.map((p) => p.path)).toEqual([
      'lineItems.0.packDescription',
    ]);
    expect(fx.store.batches.list()).toEqual([]);
  });
});
