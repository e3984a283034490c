import { z } from 'zod';
import { Money, OrderStatusRead, Timestamp } from '@shared/api';
import { tallyOrders, type OrderOutcomeView } from '@shared/order-outcome';
import type { PatientOrderView, PatientSummaryView } from '@shared/patient-views';
import { orderProtocolOf } from '../orders/order-job';
import { LIVE_CHANGE_JOIN } from '../protocols/change-queue';
import { supplyEnd } from '../orders/refills';
import { daysLeft } from '../orders/supply';
import { COLUMNS_SELECT, ProtocolColumnsRow } from '../protocols/list-columns';
import {
  ProtocolSummaryRow,
  SUMMARY_SELECT,
  type ProtocolSummary,
} from '../protocols/protocol-model';
import type { LocalStore } from '../stores';
import { personKey } from '../protocols/patient-identity';
import { parseJsonRow, parseRow, prepareCached } from '../db/rows';

/*
 * Patients: a patient is a person under the customer sourceId ("Patient ID") that protocols and
 * mirrored orders carry; there is no table of them. The list (search, paging) and one patient's
 * whole view, read from protocols (protocols_source_id) and orders (orders_source_id). An ID that
 * protocols give several names is listed once per name, flagged (docs/decisions.md, "One person
 * per Patient ID"): names are told apart by the protocols' sort_name (patient-identity.ts).
 */

/**
 * Every person once: each name (sort_name) the protocols not deleted give an ID, named after a
 * protocol; an ID only orders carry is one row named after its latest order (SQLite's MAX()
 * takes the other columns from the row of the maximum). The orders of an ID of one person are
 * that person's (with whether the latest was cancelled); those of a shared ID are counted by name
 * afterwards (sharedOrders).
 */
const PATIENTS = `WITH
  pp AS (SELECT source_id AS sid, sort_name AS person, COUNT(*) AS n, MIN(customer_name) AS p_name
         FROM protocols WHERE deleted = 0 GROUP BY source_id, sort_name),
  pid AS (SELECT sid, COUNT(*) AS people FROM pp GROUP BY sid),
  o AS (SELECT customer_source_id AS sid, COUNT(*) AS n, MAX(created_at) AS last_at,
          customer_name AS o_name, status = 'CANCELLED' AS last_cancelled
        FROM orders GROUP BY customer_source_id),
  patients AS (
    SELECT pp.sid AS sid, pp.person AS person,
      COALESCE(NULLIF(TRIM(pp.p_name), ''), o.o_name, '') AS name, pp.n AS protocols,
      CASE WHEN pid.people = 1 THEN COALESCE(o.n, 0) ELSE 0 END AS orders,
      CASE WHEN pid.people = 1 THEN o.last_at END AS last_at, pid.people > 1 AS shared,
      CASE WHEN pid.people = 1 THEN COALESCE(o.last_cancelled, 0) ELSE 0 END AS last_cancelled
    FROM pp JOIN pid ON pid.sid = pp.sid LEFT JOIN o ON o.sid = pp.sid
    UNION ALL
    SELECT o.sid, NULL, o.o_name, 0, o.n, o.last_at, 0, o.last_cancelled FROM o
    WHERE NOT EXISTS (SELECT 1 FROM pid WHERE pid.sid = o.sid))`;

const PatientRow = z.object({
  sid: z.string(),
  person: z.string().nullable(),
  shared: z.union([z.literal(0), z.literal(1)]),
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
): { patients: PatientSummaryView[]; total: number; sharedIds: number } {
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
    const own = r.shared === 1 && r.person !== null ? sharedOrders(store, r.sid, r.person) : r;
    return {
      sourceId: r.sid,
      name: r.name,
      person: r.person,
      sharedId: r.shared === 1,
      protocols: r.protocols,
      orders: own.orders,
      lastOrderedAt: own.last_at === null ? null : new Date(own.last_at).toISOString(),
      lastOrderCancelled: r.last_cancelled === 1,
    };
  });
  return { patients, total, sharedIds: sharedIdCount(store) };
}

/** How many Patient IDs the protocols not deleted give more than one name. */
export function sharedIdCount(store: LocalStore): number {
  return (
    prepareCached(
      store.db,
      `SELECT COUNT(*) AS n FROM (SELECT source_id FROM protocols WHERE deleted = 0
         GROUP BY source_id HAVING COUNT(DISTINCT sort_name) > 1)`,
    ).get() as { n: number }
  ).n;
}

const OrderNameRow = z.object({
  id: z.string(),
  first: z.string().nullable(),
  last: z.string().nullable(),
  created_at: z.int(),
});

/** The ids of a shared ID's orders written to this person's name, newest first. */
function ordersOfPerson(store: LocalStore, sourceId: string, person: string): Set<string> {
  const rows = prepareCached(
    store.db,
    `SELECT id, json_extract(body, '$.customer.firstName') AS first,
       json_extract(body, '$.customer.lastName') AS last, created_at
     FROM orders WHERE customer_source_id = ? ORDER BY created_at DESC, id DESC`,
  ).all(sourceId) as { id: unknown }[];
  const ids = new Set<string>();
  for (const row of rows) {
    const r = parseRow(OrderNameRow, row, 'orders', `id=${String(row.id)}`);
    if (personKey({ firstName: r.first ?? '', lastName: r.last ?? '' }) === person) ids.add(r.id);
  }
  return ids;
}

/** A shared ID's orders of one person: how many, and the latest's time. */
function sharedOrders(
  store: LocalStore,
  sourceId: string,
  person: string,
): { orders: number; last_at: number | null } {
  const ids = ordersOfPerson(store, sourceId, person);
  if (ids.size === 0) return { orders: 0, last_at: null };
  const first = ids.values().next().value as string;
  const latest = prepareCached(store.db, 'SELECT created_at FROM orders WHERE id = ?').get(
    first,
  ) as { created_at: number };
  return { orders: ids.size, last_at: latest.created_at };
}

/** The names the protocols not deleted give an ID, each once (by sort_name). */
function peopleNames(store: LocalStore, sourceId: string): { person: string; name: string }[] {
  return prepareCached(
    store.db,
    `SELECT sort_name AS person, MIN(customer_name) AS name FROM protocols
     WHERE source_id = ? AND deleted = 0 GROUP BY sort_name ORDER BY sort_name`,
  ).all(sourceId) as { person: string; name: string }[];
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
  person: string | null;
  otherNames: string[];
  protocols: { protocol: ProtocolSummary; daysSupply: number | null; products: string[] }[];
  orders: PatientOrderView[];
  /** What became of the patient's orders: standing, cancelled and refused apart. */
  outcome: OrderOutcomeView;
  supply: {
    lastOrderId: string;
    lastOrderedAt: string;
    daysSupply: number;
    runsOutAt: number;
    daysLeft: number;
  } | null;
}

const SupplyRow = z.object({
  id: z.string(),
  created_iso: z.string(),
  days: z.int(),
  refill_at: z.int(),
});

/**
 * The supply of these protocols (the patient's, not deleted) that runs out first (supply.ts, as
 * Refills due counts it: a protocol's content, overlapping orders added up); null when no
 * protocol's content was ordered.
 */
function protocolSupply(
  store: LocalStore,
  protocolLocalIds: readonly string[],
  now: number,
): Patient['supply'] {
  const row = prepareCached(
    store.db,
    `SELECT o.id, json_extract(o.body, '$.createdAt') AS created_iso,
       json_extract(o.body, '$.daysSupply') AS days, c.refill_at
     FROM protocols p JOIN protocol_columns c ON c.seq = p.seq
       JOIN orders o ON o.id = c.supply_order_id
     WHERE p.local_id IN (SELECT value FROM json_each(?)) ORDER BY c.refill_at, p.seq LIMIT 1`,
  ).get(JSON.stringify(protocolLocalIds));
  if (row === undefined) return null;
  const r = parseRow(SupplyRow, row, 'orders', `patient supply`);
  return {
    lastOrderId: r.id,
    lastOrderedAt: r.created_iso,
    daysSupply: r.days,
    runsOutAt: r.refill_at,
    daysLeft: daysLeft(r.refill_at, now),
  };
}

/**
 * One patient: the protocols not deleted (by name), every order newest first with the protocol
 * it came from when this desk made it, and when the supply runs out: the supply of their
 * protocols that runs out first, as Refills due counts it, else (orders of no protocol's
 * content) the latest order not cancelled. Null when nothing here carries the sourceId.
 */
export function patientView(
  store: LocalStore,
  sourceId: string,
  now: number,
  wanted?: string,
): Patient | null {
  // An ID of several names: only the person asked for (else the first by name), never mixed.
  const names = peopleNames(store, sourceId);
  const chosen = names.find((n) => n.person === wanted) ?? names[0] ?? null;
  const shared = names.length > 1 && chosen !== null;
  const protocols = prepareCached(
    store.db,
    `SELECT ${SUMMARY_SELECT}, ${COLUMNS_SELECT}
     FROM protocols p ${LIVE_CHANGE_JOIN} LEFT JOIN protocol_columns c ON c.seq = p.seq
     WHERE p.source_id = @sid AND p.deleted = 0 AND (@person IS NULL OR p.sort_name = @person)
     ORDER BY p.sort_name, p.seq`,
  )
    .all({ sid: sourceId, person: shared ? chosen.person : null })
    .map((row) => {
      const key = `local_id=${(row as { local_id: unknown }).local_id}`;
      const columns = parseRow(ProtocolColumnsRow, row, 'protocol_columns', key);
      return {
        protocol: parseRow(ProtocolSummaryRow, row, 'protocols', key),
        daysSupply: columns.daysSupply,
        products: columns.products,
      };
    });
  const all = prepareCached(
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
  const own = shared ? ordersOfPerson(store, sourceId, chosen.person) : null;
  const rows = own ? all.filter((r) => own.has(String(r.id))) : all;
  if (protocols.length === 0 && rows.length === 0) return null;
  let supply: Patient['supply'] = protocolSupply(
    store,
    protocols.map((p) => p.protocol.localId),
    now,
  );
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
  const outcome = tallyOrders(orders, store.jobs.refusedOrdersOf(sourceId));
  return {
    sourceId,
    name,
    person: chosen?.person ?? null,
    otherNames: shared ? names.filter((n) => n !== chosen).map((n) => n.name.trim()) : [],
    protocols,
    orders,
    outcome,
    supply,
  };
}
