import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures: `v1,` + base64 HMAC-SHA256 over "id.timestamp.body", keyed with
 * the base64 bytes after the `whsec_` prefix of the secret.
 */
export function signWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(
    secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
    'base64',
  );
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * Verifies a `webhook-signature` header (space-separated `v1,<sig>` entries, any one may match)
 * and rejects timestamps more than `toleranceSeconds` away from now. For receivers and tests.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, ts, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
