import type { ProtocolDraft, ProtocolRead } from '@shared/api';
import { valueLabel } from '@renderer/lib/format';
import { ORDER_TYPE_WORDS, SHIPPING_METHOD_WORDS } from '@shared/order-words';
import type { ConflictView } from '@shared/protocol-views';

/** One line of the side-by-side comparison: a field, and its value on each side. */
export interface ComparedRow {
  key: string;
  label: string;
  /** Null when that side has no protocol (deleted). */
  mine: string | null;
  theirs: string | null;
  differs: boolean;
}

export interface ComparedSection {
  title: string;
  rows: ComparedRow[];
}

type Content = ProtocolDraft | ProtocolRead;
type Line = Content['lineItems'][number];

const orNone = (value: string | null | undefined): string =>
  value === null || value === undefined || value.trim() === '' ? '—' : value;

/** "STANDARD" -> "Standard"; a code the app does not know is shown as it came, marked so. */
export const shippingLabel = (code: string | null): string =>
  code === null
    ? 'Decided on the subscription'
    : valueLabel(SHIPPING_METHOD_WORDS, code, 'shipping method');
export const orderTypeLabel = (code: string | null): string =>
  code === null ? 'Decided on the subscription' : valueLabel(ORDER_TYPE_WORDS, code, 'order type');

export const customerName = (c: Content | null): string | null =>
  c ? `${c.customer.firstName} ${c.customer.lastName}`.trim() : null;

/** A line item's amount: pills a day with the four doses, or containers of an external product. */
export function describeLine(line: Line): string {
  const a = line.administration;
  if (!a) return `${line.quantity} per 30 days (no doses)`;
  return `${line.quantity} a day: morning ${a.morning}, afternoon ${a.afternoon}, evening ${a.evening}, bedtime ${a.sleep}`;
}

const FIELDS: { section: string; key: string; label: string; read: (c: Content) => string }[] = [
  { section: 'Customer', key: 'name', label: 'Name', read: (c) => customerName(c) ?? '' },
  { section: 'Customer', key: 'sourceId', label: 'Patient ID', read: (c) => c.customer.sourceId },
  { section: 'Customer', key: 'email', label: 'Email', read: (c) => orNone(c.customer.email) },
  { section: 'Customer', key: 'phone', label: 'Phone', read: (c) => orNone(c.customer.phone) },
  {
    section: 'Address',
    key: 'line1',
    label: 'Street',
    read: (c) => c.customer.address.line1,
  },
  {
    section: 'Address',
    key: 'line2',
    label: 'Line 2',
    read: (c) => orNone(c.customer.address.line2),
  },
  { section: 'Address', key: 'city', label: 'City', read: (c) => c.customer.address.city },
  { section: 'Address', key: 'state', label: 'State', read: (c) => c.customer.address.state },
  { section: 'Address', key: 'zip', label: 'ZIP code', read: (c) => c.customer.address.zipCode },
  {
    section: 'Order',
    key: 'daysSupply',
    label: 'Days supply',
    read: (c) => (c.daysSupply === null ? 'Decided on the subscription' : `${c.daysSupply} days`),
  },
  {
    section: 'Order',
    key: 'shipping',
    label: 'Shipping',
    read: (c) => shippingLabel(c.shippingMethod),
  },
  {
    section: 'Order',
    key: 'orderType',
    label: 'Order type',
    read: (c) => orderTypeLabel(c.orderType),
  },
];

/**
 * Mine and theirs field by field, in sections (customer, address, order, line items). Line items
 * are matched by product: a product on one side only shows "Not in this version" on the other.
 */
export function compareConflict(
  conflict: Pick<ConflictView, 'mine' | 'theirs'>,
  productName: (id: number) => string,
): ComparedSection[] {
  const { mine, theirs } = conflict;
  const row = (key: string, label: string, m: string | null, t: string | null): ComparedRow => ({
    key,
    label,
    mine: mine ? m : null,
    theirs: theirs ? t : null,
    differs: mine !== null && theirs !== null && m !== t,
  });
  const sections: ComparedSection[] = [];
  for (const field of FIELDS) {
    let section = sections.find((s) => s.title === field.section);
    if (!section) {
      section = { title: field.section, rows: [] };
      sections.push(section);
    }
    section.rows.push(
      row(field.key, field.label, mine && field.read(mine), theirs && field.read(theirs)),
    );
  }
  const ids: number[] = [];
  for (const line of [...(mine?.lineItems ?? []), ...(theirs?.lineItems ?? [])])
    if (!ids.includes(line.productId)) ids.push(line.productId);
  const lineOf = (c: Content | null, id: number) => {
    const line = c?.lineItems.find((l) => l.productId === id);
    return line ? describeLine(line) : 'Not in this version';
  };
  sections.push({
    title: 'Line items',
    rows: ids.map((id) =>
      row(`product-${id}`, productName(id), lineOf(mine, id), lineOf(theirs, id)),
    ),
  });
  return sections;
}

/** How many fields differ between the two versions (0 when one side is deleted). */
export const countDifferences = (sections: ComparedSection[]): number =>
  sections.reduce((n, s) => n + s.rows.filter((r) => r.differs).length, 0);
