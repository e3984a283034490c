import type { AppOrder } from '@shared/api';
import type { CsvFile } from '@shared/csv-file';
import { writeCsv, type CsvCell } from '../csv-text';
import type { OrderQuery, OrdersRepo } from './orders-repo';

/**
 * The order queue as a spreadsheet (docs/csv.md, "Order queue export"): one row per order, in
 * the queue's order, over every order the queue's filters and search match.
 */
const COLUMNS: readonly [header: string, cell: (order: AppOrder) => CsvCell][] = [
  ['Order ID', (o) => o.id],
  ['Created (UTC)', (o) => utcIso(o.createdAt)],
  ['Created (local time)', (o) => localTime(o.createdAt)],
  ['Status', (o) => o.status],
  ['Patient ID', (o) => o.customer.sourceId],
  ['First name', (o) => o.customer.firstName],
  ['Last name', (o) => o.customer.lastName],
  ['Email', (o) => o.customer.email],
  ['Phone', (o) => o.customer.phone],
  ['Ship to', (o) => shipTo(o.customer.address)],
  ['Items', (o) => itemsSummary(o.lineItems)],
  ['Quantity', (o) => o.lineItems.reduce((n, li) => n + li.quantity, 0)],
  ['Order type', (o) => o.orderType],
  ['Days supply', (o) => o.daysSupply],
  ['Subtotal', (o) => o.subtotalPrice],
  ['Discount', (o) => o.totalDiscount],
  ['Volume discount', (o) => o.totalVolumeDiscount],
  ['Fees', (o) => o.totalFees],
  ['Shipping', (o) => o.totalShipping],
  ['Total', (o) => o.totalPrice],
  ['Shipping method', (o) => o.shippingMethod],
  ['Carrier', (o) => o.fulfillmentInfo?.carrier],
  ['Tracking number', (o) => o.fulfillmentInfo?.trackingNumber],
  ['Updated (UTC)', (o) => utcIso(o.updatedAt)],
];

export const ORDER_EXPORT_HEADER: readonly string[] = COLUMNS.map(([header]) => header);

/** One order as its export row (cells in ORDER_EXPORT_HEADER's order). */
export const orderExportRow = (order: AppOrder): CsvCell[] =>
  COLUMNS.map(([, cell]) => cell(order));

// Dates by hand rather than with date-fns' parse and format: at 100,000 rows they were a third
// of the export's time. Timestamps are the contract's ISO 8601 with an offset, which Date reads.

/** The server's time as ISO 8601 in UTC (`2026-11-25T14:05:00.000Z`); unreadable text as given. */
function utcIso(timestamp: string): string {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? timestamp : new Date(ms).toISOString();
}

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The time on this computer's clock, as a spreadsheet reads a date and time: `2026-11-25 15:05`. */
function localTime(timestamp: string): string {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** `12 Main St, Apt 4, Springfield, IL 62701`. */
function shipTo(address: AppOrder['customer']['address']): string {
  const stateZip = [address.state, address.zipCode].filter(Boolean).join(' ');
  return [address.line1, address.line2, address.city, stateZip].filter(Boolean).join(', ');
}

/** `2 × Vitamin D3 (60 capsules); 1 × Product 1042`: what was ordered, in one cell. */
function itemsSummary(items: AppOrder['lineItems']): string {
  return items
    .map((li) => {
      const name = li.name ?? `Product ${li.productId}`;
      return `${li.quantity} × ${name}${li.packDescription ? ` (${li.packDescription})` : ''}`;
    })
    .join('; ');
}

/**
 * The CSV of exactly these orders (the queue's selection), newest first as the queue lists them,
 * in the same columns as the queue's export. An id the mirror does not hold is refused by name
 * rather than left out: the file would silently lack an order the user chose.
 */
export function exportSelectedOrdersCsv(
  orders: Pick<OrdersRepo, 'get'>,
  orderIds: readonly string[],
): OrdersCsv | { missing: string[] } {
  const found: AppOrder[] = [];
  const missing: string[] = [];
  for (const id of new Set(orderIds)) {
    const order = orders.get(id);
    if (order) found.push(order);
    else missing.push(id);
  }
  if (missing.length > 0) return { missing };
  found.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : -1));
  return {
    csv: writeCsv(ORDER_EXPORT_HEADER, found.map(orderExportRow)),
    rows: found.length,
    touched: touchedBy(found),
  };
}

/**
 * The CSV of every order matching `query` (the queue's statuses, dates and search; no paging),
 * newest first as the queue lists them. The orders are read one at a time from the store and
 * each becomes its row as it is read.
 */
export function exportOrdersCsv(
  orders: Pick<OrdersRepo, 'matching'>,
  query: Omit<OrderQuery, 'limit' | 'offset'>,
): OrdersCsv {
  const touched: OrdersCsv['touched'] = { orders: [], patients: [] };
  function* lines(): Generator<CsvCell[]> {
    for (const order of orders.matching(query)) {
      touched.orders.push(order.id);
      touched.patients.push(order.customer.sourceId);
      yield orderExportRow(order);
    }
  }
  const csv = writeCsv(ORDER_EXPORT_HEADER, lines());
  return { csv, rows: touched.orders.length, touched };
}

/** An orders file, and the ids it holds (for the activity record). */
export type OrdersCsv = CsvFile & { touched: { orders: string[]; patients: string[] } };

const touchedBy = (orders: readonly AppOrder[]): OrdersCsv['touched'] => ({
  orders: orders.map((o) => o.id),
  patients: orders.map((o) => o.customer.sourceId),
});
