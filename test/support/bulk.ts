import type { ProtocolRequest } from '@shared/api';
import type { LocalStore } from '@main/stores';
import { validOrderBody, type TestSandbox } from './sandbox';

/** A complete protocol for patient `sourceId`: one pack product and one external product. */
export function protocolFor(
  sourceId: string,
  overrides: Partial<ProtocolRequest> = {},
): ProtocolRequest {
  const body = validOrderBody();
  return {
    ...body,
    customer: { ...body.customer, sourceId, lastName: `Patient ${sourceId}` },
    ...overrides,
  } as ProtocolRequest;
}

/**
 * `n` local drafts (never synced) with sourceIds `${tag}-0` ... ; returns their local ids.
 * `twinEvery`: every such protocol repeats the one before it ("twins": the same patient and
 * content, as a second script or a repeated CSV row makes).
 */
export function createLocalProtocols(
  store: LocalStore,
  n: number,
  tag: string,
  options: { twinEvery?: number } = {},
): string[] {
  const every = options.twinEvery ?? 0;
  const patientOf = (i: number) => (every > 0 && i > 0 && i % every === 0 ? i - 1 : i);
  return store.transaction(() =>
    Array.from(
      { length: n },
      (_, i) => store.protocols.createDraft(protocolFor(`${tag}-${patientOf(i)}`)).localId,
    ),
  );
}

/** Every order on the server (raw 1.0.1 list, all pages). */
export async function allServerOrders(sandbox: TestSandbox): Promise<any[]> {
  const orders: any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await sandbox.api('GET', `/v1/orders?${query}`);
    if (res.status !== 200)
      throw new Error(`list orders: ${res.status} ${JSON.stringify(res.body)}`);
    orders.push(...res.body.orders);
    cursor = res.body.cursor;
  } while (cursor);
  return orders;
}

/** Server order ids per customer sourceId, for the sourceIds starting with `prefix`. */
export async function serverOrdersBySourceId(
  sandbox: TestSandbox,
  prefix: string,
): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  for (const o of await allServerOrders(sandbox)) {
    const sourceId: string = o.customer.sourceId;
    if (!sourceId.startsWith(prefix)) continue;
    map.set(sourceId, [...(map.get(sourceId) ?? []), o.id]);
  }
  return map;
}

export async function clearFaults(sandbox: TestSandbox): Promise<void> {
  const res = await sandbox.api('DELETE', '/_sandbox/faults');
  if (res.status >= 300) throw new Error(`clear faults: ${res.status}`);
}

/**
 * The server holds exactly one order per protocol of the batch (by sourceId, all starting with
 * `prefix`; twins, two protocols of one patient, have one each), every item is created with its
 * own order's id, ids are distinct, and the orders mirror holds each of them.
 */
export async function expectOneOrderPerProtocol(
  sandbox: TestSandbox,
  store: LocalStore,
  batchId: string,
  prefix: string,
): Promise<void> {
  const { expect } = await import('vitest');
  const items = store.batches.items(batchId);
  const server = await serverOrdersBySourceId(sandbox, prefix);
  const itemsOf = new Map<string, string[]>();
  for (const item of items) {
    expect(item.state).toBe('done');
    const sourceId = item.request.customer.sourceId;
    itemsOf.set(sourceId, [...(itemsOf.get(sourceId) ?? []), item.orderId!]);
    expect(store.orders.get(item.orderId!)?.customer.sourceId).toBe(sourceId);
  }
  expect(server.size).toBe(itemsOf.size);
  for (const [sourceId, orderIds] of itemsOf) {
    const ids = server.get(sourceId) ?? [];
    expect(ids, `orders of ${sourceId}`).toHaveLength(orderIds.length);
    expect([...ids].sort()).toEqual([...orderIds].sort());
  }
  expect(new Set(items.map((i) => i.orderId)).size).toBe(items.length);
  expect(store.batches.get(batchId)?.state).toBe('done');
}
