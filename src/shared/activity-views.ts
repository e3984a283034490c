import { z } from 'zod';
import { UndoKind } from './undo-views';
import { ConflictChoice, ConflictKind } from './protocol-views';

/**
 * The activity record (audit trail) as main writes it and the window reads it: who did what,
 * when, at which desk, to which ids. An entry holds ids and counts only, never a patient's name,
 * address, email or phone, a product list or text the user typed (docs/decisions.md, "Activity
 * record (audit trail)"): these schemas are the only way in, so nothing else can be written.
 */

/** What was done: a closed list, the same in main and in the window. */
export const ActivityAction = z.enum([
  'protocol-created',
  'protocol-edited',
  'protocol-duplicated',
  'protocol-deleted',
  'conflict-resolved',
  'batch-submitted',
  'batch-item-retried',
  'order-created',
  'order-cancelled',
  'csv-imported',
  'csv-exported',
  'schedule-printed',
  'schedule-saved',
  'connection-switched',
  'connection-removed',
  'settings-changed',
  'store-recovered',
  /** The first start of a version with encryption at rest encrypted the store. */
  'store-encrypted',
  /** Entries older than the retention period were removed (how many, the last one's hash). */
  'retention-purge',
  /** A step of the undo history undone, or redone (detail.step says which command it was). */
  'undo',
  'redo',
]);
export type ActivityAction = z.infer<typeof ActivityAction>;

const Id = z.string().min(1).max(200);
const Ids = z.array(Id).max(1_000_000);

/** The ids an entry touched. Patients are their Patient ID (the customer's sourceId). */
export const ActivitySubjects = z
  .object({
    patients: Ids.optional(),
    /** Local protocol ids (this desk's). */
    protocols: Ids.optional(),
    /** The server's protocol ids. */
    serverProtocols: Ids.optional(),
    orders: Ids.optional(),
    batches: Ids.optional(),
    /** The saved connection (its id, never its label). */
    connection: Id.optional(),
  })
  .strict();
export type ActivitySubjects = z.infer<typeof ActivitySubjects>;

export const SUBJECT_LISTS = [
  'patients',
  'protocols',
  'serverProtocols',
  'orders',
  'batches',
] as const;
export type SubjectList = (typeof SUBJECT_LISTS)[number];

/** A name of a setting or a filter: letters, digits and dots; never its value. */
const KeyName = z.string().regex(/^[A-Za-z][A-Za-z0-9.]{0,60}$/);
const Count = z.int().min(0);
const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/** Facts about an entry that are not patient data: counts, choices, key names, hashes. */
export const ActivityDetail = z
  .object({
    /** How many: protocols imported, orders in a batch, rows exported. */
    count: Count.optional(),
    /** CSV rows that were not imported (their problems). */
    skipped: Count.optional(),
    /** What a CSV file held. */
    what: z.enum(['protocols', 'orders', 'activity', 'protocol-template']).optional(),
    /** Which of the list's filters an export applied (their names, never what was typed). */
    filters: z.array(KeyName).max(20).optional(),
    /** Why the app did it by itself: an order cancelled as a repeat of another desk's. */
    reason: z.enum(['repeat-of-another-desk']).optional(),
    /** A conflict's resolution and the conflict it resolved. */
    choice: ConflictChoice.optional(),
    conflict: ConflictKind.optional(),
    /** What a delete did: dropped (never sent), queued, deferred. */
    effect: z.enum(['queued', 'dropped', 'deferred']).optional(),
    /** Where a batch came from: the review, Order now, an order written from scratch. */
    source: z.enum(['batch', 'protocol', 'scratch']).optional(),
    concurrency: z.int().min(1).optional(),
    /** The batch was given a name (the name itself is text the user typed: not kept). */
    named: z.boolean().optional(),
    /**
     * How a Patient ID that named another person was settled: the stored details taken, the
     * details written to every protocol of the ID, or a new ID (docs/decisions.md).
     */
    patientIdChoice: z.enum(['use-stored', 'update-everywhere', 'new-id']).optional(),
    /** The command an undo or redo took back or applied again. */
    step: UndoKind.optional(),
    /** A held-back order sent anyway, although it may repeat an order. */
    sendAnyway: z.boolean().optional(),
    /** App settings (this desk) or the partner's settings (the server). */
    scope: z.enum(['app', 'partner']).optional(),
    keys: z.array(KeyName).max(50).optional(),
    previousConnection: Id.nullable().optional(),
    /** Schedules printed or saved at once. */
    schedules: Count.optional(),
    /** What removing a connection deleted with its store file. */
    removed: z
      .object({ protocols: Count, unsentChanges: Count, batches: Count, orders: Count })
      .optional(),
    /** What a recovery of a damaged store kept and lost. */
    recovery: z
      .object({
        cause: z.enum(['damaged', 'not-a-database']),
        protocols: Count,
        unsentChanges: Count,
        unfinishedBatches: Count,
        orders: Count,
        unreadable: Count,
        lostTables: z.array(z.string().regex(/^[a-z_]{1,60}$/)).max(50),
      })
      .optional(),
    /** When the store was encrypted (the entry is written at its next open). */
    encryptedAt: z.iso.datetime().optional(),
    /** A retention purge: how many entries went, the last one removed, and the cutoff. */
    purge: z
      .object({
        removed: z.int().min(1),
        lastRemovedSeq: z.int().min(1),
        lastRemovedHash: Hash,
        cutoff: z.iso.datetime(),
        years: z.int().min(1),
      })
      .optional(),
  })
  .strict();
export type ActivityDetail = z.infer<typeof ActivityDetail>;

/** Who acted, and at which desk (no password: the OS login is the boundary). */
export const ActivityActor = z.object({
  /** A random id made once per data folder. */
  deskId: z.string().min(1).max(100),
  /** The computer's name (its hostname). */
  deskName: z.string().min(1).max(255),
  /** The OS account signed in. */
  osUser: z.string().min(1).max(255),
  /** The person picked in the header as at the desk; null when none was picked. */
  staff: z.string().min(1).max(60).nullable(),
});
export type ActivityActor = z.infer<typeof ActivityActor>;

/** Ids of a list shown per entry on screen; the rest are counted (the CSV export has them all). */
export const SUBJECTS_SHOWN = 20;

/** One entry as the Activity screen shows it. */
export const ActivityEntryView = z.object({
  seq: z.int().min(1),
  /** The PC's clock (ISO 8601, UTC). */
  atLocal: z.iso.datetime(),
  /** The server's time, when an answer had told it and the server was reachable. */
  atServer: z.iso.datetime().nullable(),
  deskId: z.string(),
  deskName: z.string(),
  osUser: z.string(),
  staff: z.string().nullable(),
  action: ActivityAction,
  /** At most SUBJECTS_SHOWN of each list; `more` counts those left out. */
  subjects: ActivitySubjects,
  more: z.partialRecord(z.enum(SUBJECT_LISTS), z.int().min(1)),
  detail: ActivityDetail,
});
export type ActivityEntryView = z.infer<typeof ActivityEntryView>;

/** What the Activity screen filters by; every filter given must match. */
export const ActivityFilter = z.object({
  /** A Patient ID, exactly. */
  patient: z.string().trim().max(100, 'at most 100 characters').optional(),
  /** A staff name or an OS account, exactly. */
  person: z.string().max(255).optional(),
  action: ActivityAction.optional(),
  /** From this instant (the start of the day chosen, on this computer's clock). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Before this instant (the start of the day after the one chosen). */
  to: z.iso.datetime({ offset: true }).optional(),
});
export type ActivityFilter = z.input<typeof ActivityFilter>;

export const ActivityQuery = ActivityFilter.extend({
  limit: z.int().min(1).max(500).default(100),
  offset: z.int().min(0).default(0),
});
export type ActivityQuery = z.input<typeof ActivityQuery>;

/** A page of entries, newest first, and how many match in all. */
export const ActivityPageView = z.object({
  entries: z.array(ActivityEntryView),
  total: z.int().min(0),
});
export type ActivityPageView = z.infer<typeof ActivityPageView>;

/** Who appears in the record: the people picked at a desk and the OS accounts. */
export const ActivityPeopleView = z.object({
  staff: z.array(z.string()),
  osUsers: z.array(z.string()),
});
export type ActivityPeopleView = z.infer<typeof ActivityPeopleView>;

export const ChainBreak = z.enum(['hash-mismatch', 'prev-link', 'gap', 'anchor', 'unreadable']);
export type ChainBreak = z.infer<typeof ChainBreak>;

/** What the check of the chain found. */
export const ChainCheckView = z.discriminatedUnion('intact', [
  z.object({
    intact: z.literal(true),
    /** Entries checked: every one there is. */
    entries: z.int().min(0),
    /** The oldest entry kept (after a retention purge, not #1), or null when none. */
    first: z.int().min(1).nullable(),
  }),
  z.object({
    intact: z.literal(false),
    /** Entries found sound before the break. */
    entries: z.int().min(0),
    /** The entry where the chain breaks. */
    brokenAt: z.int().min(0),
    reason: ChainBreak,
    /** What is wrong, in words. */
    message: z.string(),
  }),
]);
export type ChainCheckView = z.infer<typeof ChainCheckView>;

/** Years the record is kept by default: HIPAA's six years for documentation. */
export const DEFAULT_RETENTION_YEARS = 6;
export const RetentionYears = z.int('whole years').min(1, 'at least 1 year').max(100);

/** A staff name as the Settings screen takes it: one line, trimmed. */
export const StaffName = z
  .string()
  .trim()
  .min(1, 'required')
  .max(60, 'at most 60 characters')
  .regex(/^[^\p{Cc}]*$/u, 'one line of text');
export const STAFF_MAX = 30;
export const StaffList = z.array(StaffName).max(STAFF_MAX);

/** The people who share this desk, and who is at it now. */
export const StaffView = z.object({
  staff: StaffList,
  atDesk: z.string().nullable(),
});
export type StaffView = z.infer<typeof StaffView>;

/**
 * What a printed or saved schedule is of: a protocol, or orders (main adds their patients' ids
 * from what it holds).
 */
export const ScheduleSubjects = z
  .object({
    protocols: z.array(z.uuid()).max(1).optional(),
    orders: z.array(z.string().min(1).max(100)).max(5000).optional(),
  })
  .refine((s) => (s.protocols?.length ?? 0) + (s.orders?.length ?? 0) > 0, {
    message: 'a protocol or an order',
  });
export type ScheduleSubjects = z.infer<typeof ScheduleSubjects>;
