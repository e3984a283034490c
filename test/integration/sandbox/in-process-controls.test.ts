import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControlError } from '@sandbox/index';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { createOrder } from '@test/support/sandbox-orders';
import { waitFor } from '@test/support/wait';

/** The controls a host calls in-process (the app's practice mode): the /_sandbox operations. */

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

describe('in-process sandbox controls', () => {
  it('moves an order up to a status, with tracking from Shipped on, and refuses going back', async () => {
    const order = await createOrder(sb);
    const shipped = sb.controls.advanceOrder(order.id, 'SHIPPED');
    expect(shipped.status).toBe('SHIPPED');
    expect(shipped.fulfillmentInfo?.trackingNumber).toBeTruthy();
    expect((await sb.api('GET', `/v1/orders/${order.id}`)).body.status).toBe('SHIPPED');
    expect(() => sb.controls.advanceOrder(order.id, 'FILLED')).toThrow(SandboxControlError);
    expect(() => sb.controls.advanceOrder('ord_none', 'FILLED')).toThrow(/not found/);
  });

  it('changes a protocol as another desk would: the next shipping method, its update time later', async () => {
    const created = await sb.api('POST', '/v1/protocols', validOrderBody());
    expect(created.status).toBe(201);
    const before = created.body as { id: string; shippingMethod: string; updatedAt: string };
    const after = sb.controls.changeProtocol(before.id);
    expect(after.shippingMethod).not.toBe(before.shippingMethod);
    expect(Date.parse(after.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const read = await sb.api('GET', `/v1/protocols/${before.id}`);
    expect(read.body.shippingMethod).toBe(after.shippingMethod);
    expect(read.body.customer).toEqual(created.body.customer);
    expect(() => sb.controls.changeProtocol('prt_none')).toThrow(SandboxControlError);
  });

  it('sets a product status, and refuses an unknown product', async () => {
    expect(sb.controls.setProductStatus(1001, 'BACKORDERED').status).toBe('BACKORDERED');
    expect((await sb.api('GET', '/v1/products/1001')).body.status).toBe('BACKORDERED');
    sb.controls.setProductStatus(1001, 'ACTIVE');
    expect(() => sb.controls.setProductStatus(999_999, 'ACTIVE')).toThrow(/not found/);
  });

  it('as if gone: every connection, the token endpoint too, is closed unanswered; then served again', async () => {
    sb.controls.setUnreachable(true);
    expect(sb.controls.unreachable).toBe(true);
    await expect(sb.api('GET', '/v1/products')).rejects.toThrow();
    await expect(sb.fetchToken()).rejects.toThrow();
    sb.controls.setUnreachable(false);
    expect((await sb.api('GET', '/v1/products')).status).toBe(200);
  });

  it('slow and failing through the fault injection', async () => {
    expect(sb.controls.setFaults({ errorRate: 1, errorStatus: 503 }).errorRate).toBe(1);
    expect((await sb.api('GET', '/v1/products')).status).toBe(503);
    sb.controls.clearFaults();
    expect(sb.controls.faults.errorRate).toBe(0);
    expect((await sb.api('GET', '/v1/products')).status).toBe(200);
  });
});

describe('the sandbox fulfillment pace (practice mode)', () => {
  it('pauses the automatic steps, steps every order on its way, resumes, changes speed', async () => {
    // A step every 100 ms of real time (60 s at time scale 600).
    const paced = await startTestSandbox({ autoAdvance: 60, timeScale: 600 });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      const read = async (id: string) =>
        (await paced.api('GET', `/v1/orders/${id}`)).body as { status: string; updatedAt: string };
      const a = await createOrder(paced);
      paced.controls.setFulfillment({ paused: true });
      expect(paced.controls.fulfillment).toEqual({ paused: true, intervalMs: 100 });

      // Paused: four steps' time later it has not moved; a step moves it at once.
      await sleep(400);
      expect((await read(a.id)).status).toBe('CREATED');
      expect(paced.controls.stepOrders()).toBe(1);
      const processing = await read(a.id);
      expect(processing.status).toBe('PROCESSING');

      // Resumed: it moves on by itself (DISPENSING reads as PROCESSING in 1.0.1: its time tells).
      paced.controls.setFulfillment({ paused: false });
      await waitFor(async () => (await read(a.id)).updatedAt !== processing.updatedAt, 5_000);

      // A step every minute: what was scheduled is stretched alike, so nothing moves for now.
      paced.controls.setFulfillment({ intervalMs: 60_000 });
      expect(paced.controls.fulfillment).toEqual({ paused: false, intervalMs: 60_000 });
      const slowed = await read(a.id);
      await sleep(400);
      expect(await read(a.id)).toEqual(slowed);
    } finally {
      await paced.close();
    }
  });
});
