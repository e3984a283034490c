import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '@sandbox/webhooks/signing';

/** Standard Webhooks, computed here with node:crypto and nothing from src. */
function reference(secret: string, id: string, timestamp: number | string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const otherSecret = `whsec_${randomBytes(24).toString('base64')}`;
const id = 'msg_01jd3x9k2m7f4q8r5t6vwxyzab';
const now = 1_760_000_000;
const body = JSON.stringify({
  order: {
    orderId: 'ord_1',
    status: 'NEW',
    createdAt: '2025-10-09T08:53:20.000Z',
    updatedAt: '2025-10-09T08:53:20.000Z',
  },
});

const headersFor = (signature: string, ts: number | string = now, msgId = id) => ({
  id: msgId,
  timestamp: String(ts),
  signature,
});

describe('signWebhook', () => {
  it('is v1, plus the base64 HMAC-SHA256 of "id.timestamp.body" keyed with the decoded secret', () => {
    const signature = signWebhook(secret, id, now, body);
    expect(signature).toBe(reference(secret, id, now, body));
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('reproduces the test vector published with the Standard Webhooks reference libraries', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs the body byte for byte: unicode and whitespace change the signature', () => {
    const unicode = '{"name":"Zoë ✓"}';
    expect(signWebhook(secret, id, now, unicode)).toBe(reference(secret, id, now, unicode));
    expect(signWebhook(secret, id, now, `${body} `)).not.toBe(signWebhook(secret, id, now, body));
  });

  it('differs per secret, id and timestamp', () => {
    const base = signWebhook(secret, id, now, body);
    expect(signWebhook(otherSecret, id, now, body)).not.toBe(base);
    expect(signWebhook(secret, `${id}x`, now, body)).not.toBe(base);
    expect(signWebhook(secret, id, now + 1, body)).not.toBe(base);
  });
});

describe('verifyWebhook', () => {
  const valid = reference(secret, id, now, body);

  it('accepts a signature computed independently', () => {
    expect(verifyWebhook(secret, headersFor(valid), body, now)).toBe(true);
  });

  it('accepts the published test vector at its own time', () => {
    const headers = {
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: '1614265330',
      signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    expect(
      verifyWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        headers,
        '{"test": 2432232314}',
        1614265330,
      ),
    ).toBe(true);
  });

  it('rejects a tampered body', () => {
    expect(verifyWebhook(secret, headersFor(valid), body.replace('NEW', 'SHIPPED'), now)).toBe(
      false,
    );
    expect(verifyWebhook(secret, headersFor(valid), `${body}\n`, now)).toBe(false);
  });

  it('rejects a tampered id', () => {
    expect(verifyWebhook(secret, headersFor(valid, now, 'msg_other'), body, now)).toBe(false);
  });

  it('rejects a tampered timestamp, even one still inside the tolerance', () => {
    expect(verifyWebhook(secret, headersFor(valid, now - 1), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid, now + 1), body, now)).toBe(false);
  });

  it('rejects a signature made with another secret', () => {
    expect(verifyWebhook(otherSecret, headersFor(valid), body, now)).toBe(false);
    expect(
      verifyWebhook(secret, headersFor(reference(otherSecret, id, now, body)), body, now),
    ).toBe(false);
  });

  it('rejects stale and future timestamps beyond the tolerance, though correctly signed', () => {
    const old = now - 301;
    expect(
      verifyWebhook(secret, headersFor(reference(secret, id, old, body), old), body, now),
    ).toBe(false);
    const future = now + 301;
    expect(
      verifyWebhook(secret, headersFor(reference(secret, id, future, body), future), body, now),
    ).toBe(false);
    // At the edge of the default 300 s tolerance it still verifies.
    const edge = now - 300;
    expect(
      verifyWebhook(secret, headersFor(reference(secret, id, edge, body), edge), body, now),
    ).toBe(true);
    // A custom tolerance is honoured.
    const minuteAgo = now - 60;
    expect(
      verifyWebhook(
        secret,
        headersFor(reference(secret, id, minuteAgo, body), minuteAgo),
        body,
        now,
        30,
      ),
    ).toBe(false);
  });

  it('rejects a timestamp that is not an integer number of seconds', () => {
    expect(verifyWebhook(secret, headersFor(valid, 'soon'), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid, `${now}.5`), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid, ''), body, now)).toBe(false);
  });

  it('accepts a space-separated list where one signature matches, wherever it stands', () => {
    const stale = reference(otherSecret, id, now, body);
    expect(verifyWebhook(secret, headersFor(`${stale} ${valid}`), body, now)).toBe(true);
    expect(verifyWebhook(secret, headersFor(`${valid} ${stale}`), body, now)).toBe(true);
    expect(
      verifyWebhook(secret, headersFor(`v1a,${'A'.repeat(43)}= ${stale} ${valid}`), body, now),
    ).toBe(true);
  });

  it('rejects a list in which no signature matches, and malformed headers', () => {
    const stale = reference(otherSecret, id, now, body);
    expect(
      verifyWebhook(
        secret,
        headersFor(`${stale} ${reference(otherSecret, id, now + 1, body)}`),
        body,
        now,
      ),
    ).toBe(false);
    expect(verifyWebhook(secret, headersFor(''), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid.slice('v1,'.length)), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid.replace('v1,', 'v2,')), body, now)).toBe(false);
    expect(verifyWebhook(secret, headersFor(valid.slice(0, -2)), body, now)).toBe(false);
  });
});
