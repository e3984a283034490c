/**
 * The words the window uses for the fields of a protocol or an order, by the path of the value in
 * the request (`customer.sourceId`), so that a message from main or the server names a field as
 * its label does: "Patient ID", never "sourceId" or "Source ID".
 */

const NAMES: Record<string, string> = {
  'customer.sourceId': 'Patient ID',
  'customer.firstName': 'First name',
  'customer.lastName': 'Last name',
  'customer.email': 'Email',
  'customer.phone': 'Phone',
  'customer.address.line1': 'Address line 1',
  'customer.address.line2': 'Address line 2',
  'customer.address.city': 'City',
  'customer.address.state': 'State',
  'customer.address.zipCode': 'ZIP code',
  daysSupply: 'Days supply',
  shippingMethod: 'Shipping method',
  orderType: 'Order type',
  lineItems: 'Products',
};

/** A line's fields as the CSV's product columns name them ("Product 1 ID", "Product 1 bedtime"). */
const LINE_FIELDS: Record<string, string> = {
  productId: 'ID',
  quantity: 'quantity',
  packDescription: 'pack description',
  administration: 'doses',
  morning: 'morning',
  afternoon: 'afternoon',
  evening: 'evening',
  sleep: 'bedtime',
};

/** Leading parts that say where the request sits, not which field: the body, an IPC `draft`. */
const WRAPPERS = new Set(['body', 'draft']);

/**
 * A field's name for people: `customer.sourceId` → "Patient ID", `lineItems.0.quantity` →
 * "Product 1 quantity", `lineItems.0.administration.sleep` → "Product 1 bedtime"; a path it does not know stays as it is, dotted.
 */
export function fieldName(path: readonly (string | number)[] | string): string {
  const parts = (typeof path === 'string' ? path.split('.') : path.map(String)).filter(
    (p, i, all) => !(WRAPPERS.has(p) && all.slice(0, i).every((q) => WRAPPERS.has(q))),
  );
  const key = parts.join('.');
  const named = NAMES[key];
  if (named) return named;
  if (parts[0] === 'lineItems' && parts[1] !== undefined && /^\d+$/.test(parts[1])) {
    const field = LINE_FIELDS[parts.at(-1) ?? ''];
    const n = Number(parts[1]) + 1;
    return parts.length === 2 || !field ? `Product ${n}` : `Product ${n} ${field}`;
  }
  return key;
}

const PATH_OF = new Map(Object.entries(NAMES).map(([path, name]) => [name, path]));

/**
 * The path of a field named as fieldName names it, so a message can be put back on its field;
 * null for a name it did not give. A dotted path given as it is comes back as it is.
 */
export function fieldPath(name: string): string | null {
  const known = PATH_OF.get(name);
  if (known) return known;
  const line = /^Product (\d+)(?: (.+))?$/.exec(name);
  if (line) {
    const index = Number(line[1]) - 1;
    if (!line[2]) return `lineItems.${index}.productId`;
    const field = Object.entries(LINE_FIELDS).find(([, words]) => words === line[2])?.[0];
    if (!field) return null;
    const dose = ['morning', 'afternoon', 'evening', 'sleep'].includes(field);
    return `lineItems.${index}.${dose ? `administration.${field}` : field}`;
  }
  return /^[A-Za-z0-9_.]+$/.test(name) ? name : null;
}
