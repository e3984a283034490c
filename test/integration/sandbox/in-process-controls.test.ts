import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControlError } from '../../../src/sandbox';
import { startTestSandbox, validOrderBody, type TestSandbox } from '../../support/sandbox';
import { createOrder } from '../../support/sandbox-orders';

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
