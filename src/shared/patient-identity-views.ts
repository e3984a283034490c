import { z } from 'zod';
import { Customer } from './api';
import { CustomerInput } from './protocol-input';

/**
 * One person per Patient ID (docs/decisions.md, "One person per Patient ID"): what main says when
 * a save would give an ID a second name, the answers it takes, and the review of IDs that already
 * name several people. A person is a name under an ID, compared as the name sort compares it
 * (case, spacing and accents aside).
 */

/** The name key of a person: last and first name, folded (main's nameSortKey). */
export const PersonKey = z.string().max(400);

/** A person an ID already names: the name, its stored details and how much carries it. */
export const PatientPersonView = z.object({
  key: PersonKey,
  /** "Maria Gonzalez", as the latest protocol (or order) writes it. */
  name: z.string(),
  /** The latest protocol's (else order's) customer; null when it could not be read. */
  customer: Customer.nullable(),
  /** Protocols (not deleted) of this name under the ID. */
  protocols: z.int().min(0),
  /** Orders of the mirror of this name under the ID, when no protocol carries the ID. */
  orders: z.int().min(0),
});
export type PatientPersonView = z.infer<typeof PatientPersonView>;

/** A save stopped: the ID already belongs to other names. */
export const PatientIdClashView = z.object({
  sourceId: z.string(),
  /** The name being saved. */
  name: z.string(),
  others: z.array(PatientPersonView).min(1),
  /** A free ID in the clinic's pattern (PAT-1002 → the next number no one has). */
  suggestedId: z.string(),
});
export type PatientIdClashView = z.infer<typeof PatientIdClashView>;

/**
 * The answer to a clash, sent again with the save. 'use-stored': the same person; the saved
 * protocol takes the stored details of that person. 'update-everywhere': the same person; every
 * protocol of the ID takes the details being saved (each edit recorded and synced). A new ID is no
 * answer here: the window changes the Patient ID and saves again, and main checks it again.
 */
export const PatientIdChoice = z.discriminatedUnion('choice', [
  z.object({ choice: z.literal('use-stored'), person: PersonKey }),
  z.object({ choice: z.literal('update-everywhere') }),
]);
export type PatientIdChoice = z.infer<typeof PatientIdChoice>;

/** A protocol of a person under a shared ID, as the review lists it. */
export const SharedIdProtocolView = z.object({
  localId: z.string(),
  products: z.array(z.string()),
  daysSupply: z.int().nullable(),
  /** The protocol came from the server (another desk) and nothing here changed it since. */
  fromServer: z.boolean(),
});

/** An ID that names several people, with each person's protocols. */
export const SharedIdView = z.object({
  sourceId: z.string(),
  people: z.array(PatientPersonView.extend({ protocolList: z.array(SharedIdProtocolView) })),
  /** A free ID in the clinic's pattern, for a person given a new one. */
  suggestedId: z.string(),
});
export type SharedIdView = z.infer<typeof SharedIdView>;

export const SharedIdsView = z.object({
  /** How many IDs name more than one person (the list holds at most the first 200). */
  total: z.int().min(0),
  ids: z.array(SharedIdView),
});
export type SharedIdsView = z.infer<typeof SharedIdsView>;

/**
 * Untangling one ID. 'same-person': every protocol of the ID takes the details of `keep` (the
 * person whose details are right). 'new-id': the protocols of `person` move to `newSourceId`.
 */
export const UntangleArgs = z.discriminatedUnion('choice', [
  z.object({
    choice: z.literal('same-person'),
    sourceId: CustomerInput.shape.sourceId,
    keep: PersonKey,
  }),
  z.object({
    choice: z.literal('new-id'),
    sourceId: CustomerInput.shape.sourceId,
    person: PersonKey,
    newSourceId: CustomerInput.shape.sourceId,
  }),
]);
export type UntangleArgs = z.infer<typeof UntangleArgs>;
export const UntangleResult = z.object({ changed: z.int().min(0) });
