import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, validOrderBody, type TestSandbox } from '@test/support/sandbox';
import { waitFor } from '@test/support/wait';
import {
  payloadOf,
  signedWith,
  startWebhookReceiver,
  webhookHeaders,
  type WebhookReceiver,
} from '@test/support/webhook-receiver';

/**
 * Retries of the spec's schedule (1 min, 5 min, 30 min; 30 s per attempt), divided by timeScale:
 * - timeScale 120: retries after 500 ms and 2.5 s, attempt timeout 250 ms. Used where an attempt
 *   must not time out by accident (the exact attempt count is asserted).
 * - timeScale 300: retries after 200 ms, 1 s and 6 s, attempt timeout 100 ms. Used where every
 *   attempt fails anyway, so an accidental timeout cannot change the outcome.
 * A receiver that hangs is tested at 120. A loaded machine can still time an attempt out before
 * its body reaches the receiver, which then never sees it: the sandbox's count is the one asserted.
 * One sandbox and one receiver per test: the delivery log is the thing under test.
 */

interface DeliveryRow {
  id: string;
  orderId: string;
  status: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function setup(timeScale: number) {
  const receiver: WebhookReceiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const sandbox: TestSandbox = await startTestSandbox({ timeScale, allowLoopbackWebhooks: true });
  cleanups.push(() => sandbox.close());
  expect(
    (await sandbox.api('PATCH', '/v1/partners/settings', { webhookUrl: receiver.url })).status,
  ).toBe(200);
  const secret = (
    await sandbox.api<{ webhookSecret: string }>('GET', '/v1/partners/settings/webhook-secret')
  ).body.webhookSecret;
  return { receiver, sandbox, secret };
}

async function onlyDelivery(sandbox: TestSandbox, orderId: string): Promise<DeliveryRow> {
  const res = await sandbox.api<{ deliveries: DeliveryRow[] }>(
    'GET',
    `/_sandbox/webhook-deliveries?orderId=${orderId}`,
  );
  expect(res.status).toBe(200);
  expect(res.body.deliveries).toHaveLength(1);
  return res.body.deliveries[0]!;
}

async function createOrder(sandbox: TestSandbox): Promise<string> {
  const res = await sandbox.api<{ id: string }>('POST', '/v1/orders', validOrderBody());
  expect(res.status).toBe(201);
  return res.body.id;
}

describe('webhook retries', () => {
  it('retries a 500 with the same webhook-id, freshly signed each time, until a 2xx', async () => {
    const { receiver, sandbox, secret } = await setup(120);
    receiver.respond((_r, index) => (index < 2 ? 500 : 200));
    const orderId = await createOrder(sandbox);

    const done = await waitFor(
      async () => {
        const d = await onlyDelivery(sandbox, orderId);
        return d.state === 'delivered' && d;
      },
      10_000,
      'delivery after two 500s',
    );
    expect(done).toMatchObject({
      status: 'NEW',
      attempts: 3,
      lastStatus: 200,
      lastError: null,
      nextAttemptAt: null,
    });

    expect(receiver.requests.map((r) => r.answered)).toEqual([500, 500, 200]);
    const ids = receiver.requests.map((r) => webhookHeaders(r).id);
    expect(ids).toEqual([done.id, done.id, done.id]);
    for (const r of receiver.requests) {
      expect(signedWith(secret, r)).toBe(true);
      expect(r.body).toBe(receiver.requests[0]!.body);
      expect(payloadOf(r).order).toMatchObject({ orderId, status: 'NEW' });
    }
    const stamps = receiver.requests.map((r) => Number(webhookHeaders(r).timestamp));
    for (let i = 1; i < stamps.length; i++)
      expect(stamps[i]).toBeGreaterThanOrEqual(stamps[i - 1]!);
  });

  it('marks a delivery failed after the first attempt and 3 retries all fail', async () => {
    const { receiver, sandbox, secret } = await setup(300);
    receiver.respond(() => 500);
    const orderId = await createOrder(sandbox);

    const pending = await waitFor(
      async () => {
        const d = await onlyDelivery(sandbox, orderId);
        return d.attempts === 1 && d.state === 'pending' && d.lastStatus === 500 && d;
      },
      5_000,
      'first failed attempt',
    );
    expect(pending.lastError).toMatch(/500/);
    expect(pending.nextAttemptAt).not.toBeNull();

    const failed = await waitFor(
      async () => {
        const d = await onlyDelivery(sandbox, orderId);
        return d.state === 'failed' && d;
      },
      15_000,
      'delivery marked failed',
    );
    expect(failed).toMatchObject({ id: pending.id, attempts: 4, nextAttemptAt: null });
    // An attempt timed out before it arrived is counted by the sandbox, never seen here.
    expect(receiver.requests.length).toBeGreaterThanOrEqual(1);
    expect(receiver.requests.length).toBeLessThanOrEqual(4);
    for (const r of receiver.requests) {
      expect(webhookHeaders(r).id).toBe(failed.id);
      expect(signedWith(secret, r)).toBe(true);
    }
    // A failed delivery is final: the order itself still reads fine (missed updates are recovered by get order).
    expect((await sandbox.api('GET', `/v1/orders/${orderId}`)).body.status).toBe('CREATED');
  });

  it('counts an attempt the receiver does not answer within the timeout as failed', async () => {
    const { receiver, sandbox, secret } = await setup(120);
    receiver.respond(() => 'hang');
    const orderId = await createOrder(sandbox);

    // Two attempts timed out; the third is due 2.5 s (5 min / 120) after the second. The sandbox
    // counts an attempt when it starts: both must also have reached the receiver, where they hang,
    // or a second attempt still on its way would meet the answer below and be delivered.
    const timedOut = await waitFor(
      async () => {
        const d = await onlyDelivery(sandbox, orderId);
        const bothHung = receiver.requests.length === 2;
        return bothHung && d.attempts === 2 && d.state === 'pending' && d.lastError !== null && d;
      },
      5_000,
      'two timed-out attempts',
    );
    expect(timedOut).toMatchObject({ lastError: 'timed out', lastStatus: null });
    expect(receiver.requests.every((r) => r.answered === null)).toBe(true);
    const unanswered = receiver.requests.length;

    receiver.respond(() => 200);
    const done = await waitFor(
      async () => {
        const d = await onlyDelivery(sandbox, orderId);
        return d.state === 'delivered' && d;
      },
      10_000,
      'delivery once the receiver answers',
    );
    expect(done).toMatchObject({ id: timedOut.id, attempts: 3, lastStatus: 200 });
    expect(receiver.requests.map((r) => r.answered)).toEqual([
      ...Array<null>(unanswered).fill(null),
      200,
    ]);
    for (const r of receiver.requests) {
      expect(webhookHeaders(r).id).toBe(done.id);
      expect(signedWith(secret, r)).toBe(true);
    }
  });

  it('signs a retry with the secret current at the time of the attempt', async () => {
    const { receiver, sandbox, secret } = await setup(120);
    receiver.respond((_r, index) => (index === 0 ? 503 : 200));
    const orderId = await createOrder(sandbox);
    await waitFor(() => receiver.requests.length === 1 && receiver.requests[0]!.answered === 503);
    const rotated = await sandbox.api<{ webhookSecret: string }>(
      'POST',
      '/v1/partners/settings/rotate-webhook-secret',
    );
    expect(rotated.status).toBe(200);

    const done = await waitFor(async () => {
      const d = await onlyDelivery(sandbox, orderId);
      return d.state === 'delivered' && d;
    }, 10_000);
    expect(done.attempts).toBe(2);
    const [first, second] = receiver.requests;
    expect(signedWith(secret, first!)).toBe(true);
    expect(signedWith(rotated.body.webhookSecret, second!)).toBe(true);
    expect(signedWith(secret, second!)).toBe(false);
  });
});
