import { expect } from '@playwright/test';
import { Order, type AppOrder, type OrderStatus, type ProductStatus } from '@shared/api';
import type { ProtocolRequest } from '@shared/api';
import { readConnectionSecret, tokenUrl } from '@main/connections/connection';
import { KeytarCredentialStore } from '@main/connections/keychain';
import type { BrowserHost } from './fixtures';

/**
 * Seeding for the daily screens' tests, through the host's own core (its session's API client
 * and local store) and the embedded sandbox's controls over HTTP on 127.0.0.1.
 */

const session = (host: BrowserHost) => {
  const s = host.core.session;
  if (!s) throw new Error('no active session: connect first');
  return s;
};

/** A valid protocol / order body for one patient (one pack product, one external product). */
export function patientBody(
  patient: { sourceId: string; firstName: string; lastName: string },
  daysSupply: 30 | 60 | 90 = 30,
): ProtocolRequest {
  return {
    customer: {
      ...patient,
      email: `${patient.firstName.toLowerCase()}@example.com`,
      phone: '+1 503 555 0100',
      address: { line1: '1 Main St', line2: null, city: 'Portland', state: 'OR', zipCode: '97210' },
    },
    daysSupply,
    shippingMethod: 'STANDARD',
    orderType: 'ONE_TIME',
    lineItems: [
      {
        productId: 1001,
        quantity: 2,
        packDescription: '1 capsule',
        administration: { morning: 0, afternoon: 0, evening: 1, sleep: 1 },
      },
      { productId: 1035, quantity: 1, administration: null },
    ],
  };
}

/** Drafts a protocol in the local store (sync sends it); answers its local id. */
export function draftProtocol(host: BrowserHost, body: ProtocolRequest): string {
  return session(host).protocols.create(body).localId;
}

/** Creates an order on the server and stores it in the app's order mirror, as the poller would. */
export async function placeOrder(host: BrowserHost, body: ProtocolRequest): Promise<AppOrder> {
  const created = await session(host).client.createOrder(body);
  return host.core.store.orders.upsert(created, { source: 'pulled' }).order;
}

/** Cancels an order on the server and stores the cancelled order. */
export async function cancelOrder(host: BrowserHost, orderId: string): Promise<AppOrder> {
  const outcome = await session(host).orders.cancelOrder(orderId);
  expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  return host.core.store.orders.get(orderId)!;
}

/**
 * Stores an order the app knows from the past: a delivered copy of `order` under another id,
 * placed `daysAgo` days ago (delivered is final: the poller never reads it again).
 */
export function rememberPastOrder(
  host: BrowserHost,
  order: AppOrder,
  id: string,
  daysAgo: number,
): AppOrder {
  const at = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const past: AppOrder = { ...order, id, status: 'DELIVERED', createdAt: at, updatedAt: at };
  return host.core.store.orders.upsert(past, { source: 'pulled' }).order;
}

/**
 * The embedded sandbox's controls (e.g. /_sandbox/orders/:id/advance), with a token for its
 * demo client, whose secret is in this test's keychain service.
 */
export async function embeddedControls(host: BrowserHost, keychainService: string) {
  const connection = session(host).connection;
  const secret = await readConnectionSecret(new KeytarCredentialStore(keychainService), connection);
  if (!secret) throw new Error('the embedded sandbox secret is not in the keychain');
  const res = await fetch(tokenUrl(connection), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: connection.clientId,
      client_secret: secret,
    }),
  });
  expect(res.status).toBe(200);
  const { access_token: token } = (await res.json()) as { access_token: string };
  const origin = new URL(connection.baseUrl).origin;
  return {
    /** Moves the order along the fulfillment chain to `to`. */
    async advance(orderId: string, to: OrderStatus): Promise<Order> {
      const r = await fetch(`${origin}/_sandbox/orders/${encodeURIComponent(orderId)}/advance`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to }),
      });
      const body: unknown = await r.json();
      expect(r.status, JSON.stringify(body)).toBe(200);
      return Order.parse(body);
    },
    /** The partner changes a product's status (PATCH /_sandbox/products/:id). */
    async productStatus(productId: number, status: ProductStatus): Promise<void> {
      const r = await fetch(`${origin}/_sandbox/products/${productId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ status }),
      });
      expect(r.status, await r.text()).toBe(200);
    },
  };
}

/** How many orders the server holds for each patient whose sourceId starts with `prefix`. */
export async function serverOrderCounts(
  host: BrowserHost,
  prefix: string,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let cursor: string | null = null;
  do {
    const page: { orders: AppOrder[]; cursor: string | null } = await session(
      host,
    ).client.listOrders({ limit: 100, ...(cursor ? { cursor } : {}) });
    for (const o of page.orders) {
      const id = o.customer.sourceId;
      if (id.startsWith(prefix)) counts[id] = (counts[id] ?? 0) + 1;
    }
    cursor = page.cursor;
  } while (cursor);
  return counts;
}
