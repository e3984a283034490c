import type { ProtocolRequest } from '@shared/api';
import type { PatientIdChoice } from '@shared/patient-identity-views';
import type { ActivityLog } from '../activity/activity-log';
import { PatientIdClash, findClash, peopleOfId, type PatientPerson } from './patient-identity';
import { StoreError } from '../db/errors';
import type { ProtocolStore } from './protocol-store';
import type { LocalProtocol } from './protocol-model';

/** A customer as a save carries it: a request's, or a stored draft's passed back. */
type Customer = ProtocolRequest['customer'] | LocalProtocol['draft']['customer'];

/** What a save writes after the rule: its customer, and the protocols to bring in line. */
export interface Settled {
  customer: Customer;
  /** 'update-everywhere': the other protocols of the ID, to take `customer`'s details. */
  everywhere: string[];
  choice: PatientIdChoice['choice'] | null;
}

/**
 * The rule of one person per Patient ID for one save (inside the command's transaction): no
 * other name under the ID, or the user's answer to the clash; else PatientIdClash. `exclude`:
 * the protocol being saved, whose own name does not count.
 */
export function settlePatientId(
  store: ProtocolStore,
  customer: Customer,
  choice: PatientIdChoice | undefined,
  exclude?: string,
): Settled {
  const clash = findClash(store.db, customer, exclude);
  if (!clash) return { customer, everywhere: [], choice: null };
  const { people, ...view } = clash;
  if (!choice) throw new PatientIdClash(view);
  if (choice.choice === 'update-everywhere') {
    return { customer, everywhere: people.flatMap((p) => p.localIds), choice: choice.choice };
  }
  const stored = people.find((p) => p.key === choice.person)?.customer;
  // The person is gone or unreadable since the question: ask again with what is there now.
  if (!stored) throw new PatientIdClash(view);
  return {
    customer: { ...detailsOf(stored), sourceId: customer.sourceId },
    everywhere: [],
    choice: choice.choice,
  };
}

/**
 * The rule for a row of a CSV import (inside the import's transaction, so earlier rows count):
 * 'use-stored' takes the details of the person the ID names (its latest protocol's name).
 */
export function settleImportRow(
  store: ProtocolStore,
  customer: ProtocolRequest['customer'],
  choice: 'use-stored' | 'update-everywhere' | null,
): Settled {
  const clash = findClash(store.db, customer);
  if (!clash) return { customer, everywhere: [], choice: null };
  if (choice === null) {
    const { people: _people, ...view } = clash;
    throw new PatientIdClash(view);
  }
  return settlePatientId(
    store,
    customer,
    choice === 'use-stored' ? { choice, person: clash.people[0]!.key } : { choice },
  );
}

/** A stored customer's details as a request's (its Patient ID kept). */
export function detailsOf(c: NonNullable<PatientPerson['customer']>): ProtocolRequest['customer'] {
  return {
    sourceId: c.sourceId,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    phone: c.phone,
    address: { ...c.address, line2: c.address.line2 ?? null },
  };
}

/**
 * Writes the customer `customerOf` gives (its Patient ID included) over each protocol, each edit
 * queued for the server and recorded on its own, as any edit. Protocols already so are left alone.
 */
export function rewriteCustomers(
  store: ProtocolStore,
  activity: Pick<ActivityLog, 'record'>,
  localIds: readonly string[],
  customerOf: (before: LocalProtocol) => LocalProtocol['draft']['customer'],
  choice: 'update-everywhere' | 'new-id',
): number {
  let changed = 0;
  for (const localId of localIds) {
    const before = store.protocols.get(localId);
    if (!before || before.deleted) continue;
    const customer = customerOf(before);
    const keys = customerKeys(before.draft.customer, customer);
    if (keys.length === 0) continue;
    const after = store.protocols.replaceCustomer(localId, customer);
    activity.record({
      action: 'protocol-edited',
      subjects: {
        patients: [...new Set([before.sourceId, after.sourceId])],
        protocols: [localId],
        serverProtocols: after.serverId ? [after.serverId] : [],
      },
      detail: { keys, patientIdChoice: choice },
    });
    changed += 1;
  }
  return changed;
}

const CUSTOMER_KEYS = ['sourceId', 'firstName', 'lastName', 'email', 'phone', 'address'] as const;

/** The customer fields two customers differ in ("customer.address"), never their values. */
export function customerKeys(
  before: LocalProtocol['draft']['customer'],
  after: Customer | LocalProtocol['draft']['customer'],
): string[] {
  const norm = (v: unknown) => JSON.stringify(v ?? null);
  const address = (a: typeof before.address) => ({ ...a, line2: a.line2 ?? null });
  return CUSTOMER_KEYS.filter((k) =>
    k === 'address'
      ? norm(address(before.address)) !== norm(address(after.address))
      : norm(before[k]) !== norm(after[k]),
  ).map((k) => `customer.${k}`);
}

/**
 * Untangling a shared ID, the same person: every protocol of the ID takes the details of the
 * person `keep` (their latest protocol's). Returns how many protocols changed.
 */
export function keepOnePerson(
  store: ProtocolStore,
  activity: Pick<ActivityLog, 'record'>,
  sourceId: string,
  keep: string,
): number {
  const people = peopleOfId(store.db, sourceId);
  const kept = people.find((p) => p.key === keep);
  if (!kept || kept.protocols === 0 || !kept.customer)
    throw new StoreError('not-found', `No protocol of Patient ID ${sourceId} has that name now.`);
  const details = detailsOf(kept.customer);
  return rewriteCustomers(
    store,
    activity,
    people.flatMap((p) => p.localIds),
    () => details,
    'update-everywhere',
  );
}

/**
 * Untangling a shared ID, another person: the protocols of `person` under `sourceId` move to
 * `newSourceId`, which must not name someone else already. Returns how many protocols changed.
 */
export function moveToNewId(
  store: ProtocolStore,
  activity: Pick<ActivityLog, 'record'>,
  sourceId: string,
  person: string,
  newSourceId: string,
): number {
  const moving = peopleOfId(store.db, sourceId).find((p) => p.key === person);
  if (!moving || moving.protocols === 0 || !moving.customer)
    throw new StoreError('not-found', `No protocol of Patient ID ${sourceId} has that name now.`);
  if (newSourceId === sourceId)
    throw new StoreError('invalid-state', `The new Patient ID must differ from ${sourceId}.`);
  const clash = findClash(store.db, { ...moving.customer, sourceId: newSourceId });
  if (clash) {
    const { people: _people, ...view } = clash;
    throw new PatientIdClash(view);
  }
  return rewriteCustomers(
    store,
    activity,
    moving.localIds,
    (before) => ({ ...before.draft.customer, sourceId: newSourceId }),
    'new-id',
  );
}
