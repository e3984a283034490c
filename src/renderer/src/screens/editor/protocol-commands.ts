import type { IpcArgs } from '@shared/ipc';
import type { PatientIdChoice } from '@shared/patient-identity-views';
import type { CreateOrder } from '@shared/work-views';
import { call } from '@renderer/lib/ipc';

type ProtocolDraft = IpcArgs<'protocols.create'>['draft'];
type CustomerDraft = IpcArgs<'protocols.duplicate'>['customer'];

/** What the editor asks of main: save, create, duplicate, review and place an order. */

/** Saves a new protocol (no localId) or a change to a saved one. */
export function saveProtocol(
  localId: string | null,
  draft: ProtocolDraft,
  patientId?: PatientIdChoice,
) {
  return localId
    ? call('protocols.update', {
        localId,
        draft,
        ...(patientId ? { patientId } : {}),
      })
    : call('protocols.create', { draft, ...(patientId ? { patientId } : {}) });
}

/** The same order for another patient. */
export function duplicateProtocol(
  localId: string,
  customer: CustomerDraft,
  patientId?: PatientIdChoice,
) {
  return call('protocols.duplicate', {
    localId,
    customer,
    ...(patientId ? { patientId } : {}),
  });
}

/** Main's review of one order before the user confirms it. */
export function reviewOrder(input: CreateOrder) {
  return call('orders.review', input);
}

/** Places one order, beside the orders its confirmation showed it repeating. */
export function placeOrder(input: CreateOrder, allowDuplicateOf: string[]) {
  return call('orders.create', {
    ...input,
    ...(allowDuplicateOf.length > 0 ? { allowDuplicateOf } : {}),
  });
}
