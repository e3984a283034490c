import { z } from 'zod';
import { Money, OrderStatusRead, Timestamp } from './api';
import { OrderOutcomeView } from './order-outcome';
import { ProtocolSummaryView } from './protocol-views';

/**
 * Patients as the window sees them over IPC (the `patients.*` calls). A patient is a customer of
 * the partner's system, known by its sourceId ("Patient ID"): the protocols and the mirrored
 * orders that carry it. There is no patients table: a patient is what those rows say.
 */

/** A patient's sourceId, as the API bounds it. */
export const PatientId = z.object({
  sourceId: z.string().trim().min(1, 'required').max(100),
  /** Which person, when the ID names several (their name key); else the ID's one person. */
  person: z.string().max(400).optional(),
});

/** The patient list: search words (name or Patient ID), a page by offset. */
export const PatientListQuery = z.object({
  search: z.string().max(200, 'at most 200 characters').optional(),
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
});
export type PatientListQuery = z.input<typeof PatientListQuery>;

/** One patient of the list. */
export const PatientSummaryView = z.object({
  sourceId: z.string(),
  /** The name a protocol gives the patient, else the latest order's. */
  name: z.string(),
  /** The person's name key (the list keeps each name under an ID apart); null: orders only. */
  person: z.string().nullable(),
  /** The Patient ID also names someone else here (docs/decisions.md, "One person per Patient ID"). */
  sharedId: z.boolean(),
  /** Protocols not deleted here. */
  protocols: z.int().min(0),
  /** Orders of the mirror, cancelled ones included. */
  orders: z.int().min(0),
  /** The latest order's createdAt; null when the patient has none. */
  lastOrderedAt: Timestamp.nullable(),
  /** Whether that latest order was cancelled (it still counts as ordered). */
  lastOrderCancelled: z.boolean(),
});
export type PatientSummaryView = z.infer<typeof PatientSummaryView>;

export const PatientPageView = z.object({
  patients: z.array(PatientSummaryView),
  /** How many patients match in all. */
  total: z.int().min(0),
  /** How many Patient IDs here name more than one person (the Patients screen's review). */
  sharedIds: z.int().min(0),
});
export type PatientPageView = z.infer<typeof PatientPageView>;

/**
 * One order of the patient as the patient view lists it (what a row shows, not the whole order:
 * a patient may have hundreds), with the protocol it was made from when this desk made it.
 */
export const PatientOrderView = z.object({
  id: z.string(),
  status: OrderStatusRead,
  createdAt: Timestamp,
  daysSupply: z.int().nullable(),
  totalPrice: Money.nullable(),
  /** The products' names, as the order lists them. */
  products: z.array(z.string()),
  /** The shipment, once the partner has one; null before. */
  tracking: z
    .object({
      carrier: z.string().nullable(),
      trackingNumber: z.string().nullable(),
      trackingUrl: z.string().nullable(),
    })
    .nullable(),
  /** The local protocol the order was made from; null when not made here from a protocol. */
  protocolLocalId: z.string().nullable(),
});
export type PatientOrderView = z.infer<typeof PatientOrderView>;

/** When the patient's supply runs out: from the last order not cancelled. */
export const PatientSupplyView = z.object({
  lastOrderId: z.string(),
  lastOrderedAt: Timestamp,
  daysSupply: z.int().min(1),
  runsOutAt: Timestamp,
  /** Whole days until it runs out; negative when it already has. */
  daysLeft: z.int(),
});
export type PatientSupplyView = z.infer<typeof PatientSupplyView>;

/** One protocol of the patient, with what tells it from the patient's others. */
export const PatientProtocolView = z.object({
  protocol: ProtocolSummaryView,
  /** The draft's days supply (null: decided on the subscription). */
  daysSupply: z.int().nullable(),
  /** The draft's products, by their names in the local catalog (else "Product <id>"). */
  products: z.array(z.string()),
});
export type PatientProtocolView = z.infer<typeof PatientProtocolView>;

/** Everything about one patient: protocols, every order (newest first), what is due. */
export const PatientView = z.object({
  sourceId: z.string(),
  name: z.string(),
  person: z.string().nullable(),
  /** The other names the same Patient ID carries here: never shown as this patient's. */
  otherNames: z.array(z.string()),
  protocols: z.array(PatientProtocolView),
  orders: z.array(PatientOrderView),
  /** What became of them as the app knows it now: standing (charged), cancelled, refused. */
  outcome: OrderOutcomeView,
  /** Null when no order of the patient supplies them (none, or all cancelled). */
  supply: PatientSupplyView.nullable(),
});
export type PatientView = z.infer<typeof PatientView>;
