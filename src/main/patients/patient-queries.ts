import { z } from 'zod';
import { Money, OrderStatusRead, Timestamp } from '@shared/api';
import type { PatientOrderView, PatientSummaryView } from '@shared/patient-views';
import { orderProtocolOf } from '../jobs/order-job';
import { LIVE_CHANGE_JOIN } from '../jobs/protocol/change-queue';
import { supplyEnd } from '../orders/refills';
import { COLUMNS_SELECT, ProtocolColumnsRow } from '../protocols/list-columns';
import {
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  type ProtocolSummary,
} from '../protocols/protocol-model';
import type { LocalStore } from '../stores';
import { parseJsonRow, parseRow, prepareCached } from '../store/rows';

/*
 * Patients: a patient is the customer sourceId ("Patient ID") that protocols and mirrored orders
 * carry; there is no table of them. The list (search, paging) and one patient's whole view, read
 * from protocols (protocols_source_id) and orders (orders_source_id).
 */

/**
 * Every patient once: the orders' (their count and latest order, and whether it was cancelled;
 * SQLite's MAX() takes the other columns from the row of the maximum) and the protocols' not deleted, named after a protocol
 * when there is one, else after the latest order.
 */
const PATIENTS = `WITH
  o AS (SELECT customer_source_id AS sid, COUNT(*) AS n, MAX(created_at) AS last_at,
          customer_name AS o_name, status = 'CANCELLED' AS last_cancelled
        FROM orders GROUP BY customer_source_id),
  p AS (SELECT source_id AS sid, COUNT(*) AS n, MIN(customer_name) AS p_name
        FROM protocols WHERE deleted = 0 GROUP BY source_id),
  ids AS (SELECT sid FROM o UNION SELECT sid FROM p),
  patients AS (
    SELECT ids.sid AS sid, COALESCE(NULLIF(TRIM(p.p_name), ''), o.o_name, '') AS name,
      COALESCE(p.n, 0) AS protocols, COALESCE(o.n, 0) AS orders, o.last_at AS last_at,
      COALESCE(o.last_cancelled, 0) AS last_cancelled
    FROM ids LEFT JOIN o ON o.sid = ids.sid LEFT JOIN p ON p.sid = ids.sid)`;

const PatientRow = z.object({
  sid: z.string(),
  name: z.string(),
  protocols: z.int().min(0),
  orders: z.int().min(0),
  last_at: z.int().nullable(),
  last_cancelled: z.union([z.literal(0), z.literal(1)]),
});

/** Each word of the search matches the name or the Patient ID (LIKE: ASCII case aside). */
function searchClause(search: string | undefined): { where: string; params: string[] } {
  const words = (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 10);
  if (words.length === 0) return { where: '', params: [] };
  return {
    where: `WHERE ${words.map(() => `(name || ' ' || sid) LIKE ? ESCAPE '\\'`).join(' AND ')}`,
    params: words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`),
  };
}

/** A page of patients matching the search, by name then Patient ID, and how many match. */
export function listPatients(
  store: LocalStore,
  query: { search?: string | undefined; limit: number; offset: number },
): { patients: PatientSummaryView[]; total: number } {
  const { where, params } = searchClause(query.search);
  const rows = prepareCached(
    store.db,
    `${PATIENTS} SELECT *, COUNT(*) OVER () AS total FROM patients ${where}
     ORDER BY name COLLATE NOCASE, sid LIMIT ? OFFSET ?`,
  ).all(...params, query.limit, query.offset) as { sid: unknown; total: number }[];
  const total =
    rows[0]?.total ??
    (
      prepareCached(store.db, `${PATIENTS} SELECT COUNT(*) AS n FROM patients ${where}`).get(
        ...params,
      ) as { n: number }
    ).n;
  const patients = rows.map((row) => {
    const r = parseRow(PatientRow, row, 'orders', `customer_source_id=${String(row.sid)}`);
    return {
      sourceId: r.sid,
      name: r.name,
      protocols: r.protocols,
      orders: r.orders,
      lastOrderedAt: r.last_at === null ? null : new Date(r.last_at).toISOString(),
      lastOrderCancelled: r.last_cancelled === 1,
    };
  });
  return { patients, total };
}

const OrderRow = z.object({
  id: z.string(),
  status: OrderStatusRead,
  created_at: z.int(),
  created_iso: Timestamp,
  days: z.int().nullable(),
  total: Money.nullable(),
  products: z.string(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  tracking_url: z.string().nullable(),
  protocol_local_id: z.string().nullable(),
});

const ProductNames = z.array(z.string());

/** One patient's protocols, orders and supply, before the IPC layer shapes the protocols. */
export interface Patient {
  sourceId: string;
  name: string;
  protocols: { protocol: ProtocolSummary; daysSupply: number | null; products: string[] }[];
  orders: PatientOrderView[];
  supply: {
    lastOrderId: string;
    lastOrderedAt: string;
    daysSupply: number;
    runsOutAt: number;
    daysLeft: number;
  } | null;
}

/**
 * One patient: the protocols not deleted (by name), every order newest first with the protocol
 * it came from when this desk made it, and when the supply runs out: from the latest order not
 * cancelled, as refills due counts it. Null when nothing here carries the sourceId.
 */
export function patientView(store: LocalStore, sourceId: string, now: number): Patient | null {
  const protocols = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT}, ${COLUMNS_SELECT}
     FROM protocols p ${LIVE_CHANGE_JOIN} LEFT JOIN protocol_columns c ON c.seq = p.seq
     WHERE p.source_id = ? AND p.deleted = 0 ORDER BY p.sort_name, p.seq`,
  )
    .all(sourceId)
    .map((row) => {
      const key = `local_id=${(row as { local_id: unknown }).local_id}`;
      const columns = parseRow(ProtocolColumnsRow, row, 'protocol_columns', key);
      return {
        protocol: parseRow(ProtocolSummaryRow, row, 'protocols', key),
        daysSupply: columns.daysSupply,
        products: columns.products,
      };
    });
  const rows = prepareCached(
    store.db,
    `SELECT o.id, o.status, o.created_at, o.customer_name,
       json_extract(o.body, '$.createdAt') AS created_iso,
       json_extract(o.body, '$.daysSupply') AS days,
       json_extract(o.body, '$.totalPrice') AS total,
       (SELECT json_group_array(COALESCE(json_extract(li.value, '$.name'),
                 'Product ' || json_extract(li.value, '$.productId')))
          FROM json_each(o.body, '$.lineItems') li) AS products,
       json_extract(o.body, '$.fulfillmentInfo.carrier') AS carrier,
       json_extract(o.body, '$.fulfillmentInfo.trackingNumber') AS tracking_number,
       json_extract(o.body, '$.fulfillmentInfo.trackingUrl') AS tracking_url,
       ${orderProtocolOf('o.id')} AS protocol_local_id
     FROM orders o WHERE o.customer_source_id = ? ORDER BY o.created_at DESC, o.id DESC`,
  ).all(sourceId) as { id: unknown; customer_name?: unknown }[];
  if (protocols.length === 0 && rows.length === 0) return null;
  let supply: Patient['supply'] = null;
  const orders = rows.map((row) => {
    const r = parseRow(OrderRow, row, 'orders', `id=${String(row.id)}`);
    if (supply === null && r.status !== 'CANCELLED' && r.days !== null && r.days > 0) {
      supply = {
        lastOrderId: r.id,
        lastOrderedAt: r.created_iso,
        daysSupply: r.days,
        ...supplyEnd(r.created_at, r.days, now),
      };
    }
    const hasTracking = r.carrier !== null || r.tracking_number !== null || r.tracking_url !== null;
    return {
      id: r.id,
      status: r.status,
      createdAt: r.created_iso,
      daysSupply: r.days,
      totalPrice: r.total,
      products: parseJsonRow(ProductNames, r.products, 'orders', `id=${r.id}`),
      tracking: hasTracking
        ? { carrier: r.carrier, trackingNumber: r.tracking_number, trackingUrl: r.tracking_url }
        : null,
      protocolLocalId: r.protocol_local_id,
    };
  });
  const name =
    protocols.find((p) => p.protocol.customerName.trim() !== '')?.protocol.customerName ??
    (typeof rows[0]?.customer_name === 'string' ? rows[0].customer_name : '');
  return { sourceId, name, protocols, orders, supply };
}
