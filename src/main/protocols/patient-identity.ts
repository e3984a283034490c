import { z } from 'zod';
import { Customer, ProtocolDraft } from '@shared/api';
import type { PatientIdClashView, PatientPersonView } from '@shared/patient-identity-views';
import { nameSortKey } from './protocol-search';
import type { Db } from '../db/db';
import { jsonText, parseRow, prepareCached } from '../db/rows';

/*
 * One person per Patient ID: the rule every save, import and copy of a protocol passes through
 * (docs/decisions.md, "One person per Patient ID"). A person is a name under an ID; two names are
 * one person when their name keys (nameSortKey: case, spacing and accents folded) are equal.
 */

/** The name key of a customer: the protocols' sort_name, so SQL and this module agree. */
export const personKey = (c: { firstName: string; lastName: string }): string => nameSortKey(c);

/** A person under an ID, with the protocols that carry that name (local ids, newest first). */
export interface PatientPerson extends PatientPersonView {
  localIds: string[];
}

const ProtocolPersonRow = z.object({
  local_id: z.string(),
  sort_name: z.string(),
  customer_name: z.string(),
  draft: jsonText(ProtocolDraft),
});

const NamePart = z.object({ firstName: z.string(), lastName: z.string() });
const OrderPersonRow = z.object({ id: z.string(), customer: jsonText(z.unknown()) });

/**
 * The people an ID names: its protocols not deleted (less `exclude`), grouped by name, the
 * latest protocol's details first; when no protocol carries the ID, its orders' names.
 */
export function peopleOfId(db: Db, sourceId: string, exclude?: string): PatientPerson[] {
  const people = new Map<string, PatientPerson>();
  const rows = prepareCached(
    db,
    `SELECT local_id, sort_name, customer_name, draft FROM protocols
     WHERE source_id = ? AND deleted = 0 AND local_id IS NOT ? ORDER BY local_updated_at DESC, seq DESC`,
  ).all(sourceId, exclude ?? null) as { local_id: unknown }[];
  for (const row of rows) {
    const r = parseRow(ProtocolPersonRow, row, 'protocols', `local_id=${String(row.local_id)}`);
    const person = people.get(r.sort_name);
    if (person) {
      person.protocols += 1;
      person.localIds.push(r.local_id);
      continue;
    }
    const c = r.draft.customer;
    people.set(r.sort_name, {
      key: r.sort_name,
      name: `${c.firstName} ${c.lastName}`.trim(),
      customer: Customer.safeParse(c).data ?? null,
      protocols: 1,
      orders: 0,
      localIds: [r.local_id],
    });
  }
  if (people.size > 0) return [...people.values()];
  const orders = prepareCached(
    db,
    `SELECT id, json_extract(body, '$.customer') AS customer FROM orders
     WHERE customer_source_id = ? ORDER BY created_at DESC, id DESC`,
  ).all(sourceId) as { id: unknown }[];
  for (const row of orders) {
    const r = parseRow(OrderPersonRow, row, 'orders', `id=${String(row.id)}`);
    const names = NamePart.safeParse(r.customer).data;
    if (!names) continue;
    const key = personKey(names);
    const person = people.get(key);
    if (person) {
      person.orders += 1;
      continue;
    }
    people.set(key, {
      key,
      name: `${names.firstName} ${names.lastName}`.trim(),
      customer: Customer.safeParse(r.customer).data ?? null,
      protocols: 0,
      orders: 1,
      localIds: [],
    });
  }
  return [...people.values()];
}

/** A save stopped: the Patient ID already belongs to another name (crosses IPC as a conflict). */
export class PatientIdClash extends Error {
  override readonly name = 'PatientIdClash';
  constructor(readonly clash: PatientIdClashView) {
    super(
      `Patient ID ${clash.sourceId} already belongs to ${clash.others.map((p) => p.name).join(' and ')}. Say whether ${clash.name} is the same person, or give a new ID (${clash.suggestedId} is free).`,
    );
  }
}

/**
 * The people other than `customer`'s name that its Patient ID names, or null when none does
 * (a new ID, or the ID's person by this name). `exclude`: the protocol being saved.
 */
export function findClash(
  db: Db,
  customer: { sourceId: string; firstName: string; lastName: string },
  exclude?: string,
): (PatientIdClashView & { people: PatientPerson[] }) | null {
  const people = peopleOfId(db, customer.sourceId, exclude);
  if (people.length === 0) return null;
  if (people.some((p) => p.key === personKey(customer))) return null;
  return {
    sourceId: customer.sourceId,
    name: `${customer.firstName} ${customer.lastName}`.trim(),
    others: people.map(({ localIds: _ids, ...view }) => view),
    suggestedId: suggestFreeId(db, customer.sourceId),
    people,
  };
}

/** Whether any protocol (deleted or not) or order carries this Patient ID. */
export function idInUse(db: Db, sourceId: string): boolean {
  return (
    (
      prepareCached(
        db,
        `SELECT EXISTS (SELECT 1 FROM protocols WHERE source_id = ?)
         OR EXISTS (SELECT 1 FROM orders WHERE customer_source_id = ?) AS used`,
      ).get(sourceId, sourceId) as { used: number }
    ).used === 1
  );
}

const SOURCE_ID_MAX = 100;

/**
 * A free Patient ID in the pattern of `sourceId`: its prefix and the next number after the
 * highest any ID of that prefix has here, as wide as its digits ("PAT-1002" → "PAT-1043" when
 * PAT-1042 is the highest); an ID without a number gets "-2", "-3"… `taken`: ids also not to
 * give (an import's own).
 */
export function suggestFreeId(
  db: Db,
  sourceId: string,
  taken: ReadonlySet<string> = new Set(),
): string {
  const used = (id: string) => taken.has(id) || idInUse(db, id);
  const m = /^(.*?)(\d+)$/.exec(sourceId);
  if (!m) {
    let n = 2;
    while (used(`${sourceId}-${n}`)) n += 1;
    return `${sourceId}-${n}`;
  }
  const prefix = m[1]!;
  const width = m[2]!.length;
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
  // The ids starting with the prefix, on the indexes (a range, not LIKE, which folds case).
  const ids = prepareCached(
    db,
    `SELECT source_id AS id FROM protocols
       WHERE source_id >= @prefix AND source_id < @prefix || char(1114111)
     UNION SELECT customer_source_id FROM orders
       WHERE customer_source_id >= @prefix AND customer_source_id < @prefix || char(1114111)`,
  ).all({ prefix }) as { id: string }[];
  let highest = BigInt(m[2]!);
  for (const id of [...ids.map((r) => r.id), ...taken]) {
    const digits = pattern.exec(id)?.[1];
    if (digits !== undefined && digits.length <= 18 && BigInt(digits) > highest)
      highest = BigInt(digits);
  }
  let next = highest + 1n;
  const idOf = (n: bigint) => `${prefix}${n.toString().padStart(width, '0')}`;
  while (used(idOf(next))) next += 1n;
  const id = idOf(next);
  return id.length <= SOURCE_ID_MAX ? id : `${sourceId.slice(0, SOURCE_ID_MAX - 2)}-2`;
}
