import { z } from 'zod';
import { ProtocolRead, ProtocolDraft } from './api';
import { CustomerInput } from './protocol-input';

/**
 * Local protocols as the window sees them over IPC (the `protocols.*` calls): what the list, the
 * editor and the conflicts view need, and never anything of the job machinery beyond a change's
 * state and a message for people.
 */

export const ProtocolSyncState = z.enum(['synced', 'pending', 'conflict']);
export type ProtocolSyncState = z.infer<typeof ProtocolSyncState>;

export const ConflictKind = z.enum([
  'edited-on-server',
  'deleted-on-server',
  'deleted-locally-edited-on-server',
]);
export type ConflictKind = z.infer<typeof ConflictKind>;

/** A protocol's change waiting for the server (its job), as a badge shows it. */
export const PendingChangeView = z.object({
  op: z.enum(['create', 'update', 'delete']),
  state: z.enum(['queued', 'sending', 'in_doubt', 'done', 'rejected']),
  attempts: z.int().min(0),
  /** Why it was refused or is waiting, for people; null when nothing went wrong. */
  message: z.string().nullable(),
});
export type PendingChangeView = z.infer<typeof PendingChangeView>;

export const ProtocolSummaryView = z.object({
  localId: z.string(),
  serverId: z.string().nullable(),
  customerName: z.string(),
  sourceId: z.string(),
  email: z.string().nullable(),
  syncState: ProtocolSyncState,
  deleted: z.boolean(),
  /** Epoch ms of the last local change. */
  localUpdatedAt: z.int(),
  change: PendingChangeView.nullable(),
});
export type ProtocolSummaryView = z.infer<typeof ProtocolSummaryView>;

export const ProtocolView = ProtocolSummaryView.extend({
  draft: ProtocolDraft,
  /** The server's copy as last seen; null until the protocol reached the server. */
  server: ProtocolRead.nullable(),
  conflict: z.object({ kind: ConflictKind, detectedAt: z.int() }).nullable(),
});
export type ProtocolView = z.infer<typeof ProtocolView>;

/** What the list's filters pick: a sync state, or 'in-doubt' (a pending change being checked). */
export const ProtocolListState = z.enum([...ProtocolSyncState.options, 'in-doubt']);
export type ProtocolListState = z.infer<typeof ProtocolListState>;

/**
 * A window of the next refill (the list's Refill filter): 'ran-out' already has; 'within-N' has
 * N or fewer whole days left, including those that already ran out.
 */
export const DueWindow = z.enum(['ran-out', 'within-7', 'within-14', 'within-30']);
export type DueWindow = z.infer<typeof DueWindow>;

/** Which protocols match: the list's search and filters (any of the states given). */
export const ProtocolMatch = z.object({
  /** Words of the patient's name, sourceId or email; every word must match. */
  search: z.string().max(200, 'at most 200 characters').default(''),
  syncStates: z.array(ProtocolListState).max(ProtocolListState.options.length).optional(),
  includeDeleted: z.boolean().default(false),
  /** Only the protocols whose draft orders this product (a catalog product id). */
  productId: z.int('a product id').positive('a product id').optional(),
  /**
   * Only the protocols whose patient's last order runs out soon, as Refills due counts it (by
   * the server's time): 'ran-out' already has; 'within-N' has N or fewer whole days left,
   * including those that already ran out. A patient never ordered for is never due.
   */
  due: DueWindow.optional(),
  /**
   * Protocols left out: those deleted on screen whose Undo is still offered (main is told of a
   * delete only when its undo window ends).
   */
  hide: z.array(z.uuid()).max(100).optional(),
});
export type ProtocolMatch = z.input<typeof ProtocolMatch>;

/**
 * The list's sorts: 'changed' (the last local change), 'name' (last name, then first name), and
 * one per column (see ProtocolColumnsView); 'sync' puts conflicts first, then pending changes.
 */
export const ProtocolSort = z.enum([
  'changed',
  'name',
  'products',
  'supply',
  'shipping',
  'lastOrder',
  'nextRefill',
  'sync',
]);
export type ProtocolSort = z.infer<typeof ProtocolSort>;
export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

export const ProtocolListQuery = ProtocolMatch.extend({
  sort: ProtocolSort.default('changed'),
  /**
   * Default the sort's usual one: newest first for 'changed' and 'lastOrder', else ascending.
   * A missing value sorts last in the usual direction.
   */
  direction: SortDirection.optional(),
  limit: z.int().min(1).max(500).default(50),
  /** The previous page's nextCursor (for the same search, filters and sort). */
  cursor: z.string().max(200).nullable().default(null),
});
export type ProtocolListQuery = z.input<typeof ProtocolListQuery>;

/**
 * What the list's columns show of a protocol beside its summary, read with its page (no call per
 * row): the draft's products (names, in the draft's order; a product the catalog mirror does not
 * hold yet is named by its id), supply and shipping, and the patient's last order that was not
 * cancelled (as Refills due counts it) with the day its supply runs out: the next refill.
 */
export const ProtocolColumnsView = z.object({
  products: z.array(z.string()),
  daysSupply: z.int().nullable(),
  /** The shipping method's name as the server lists it (its id until the list is mirrored). */
  shipping: z.string().nullable(),
  lastOrder: z
    .object({
      id: z.string(),
      status: z.string(),
      /** Epoch ms of the order's createdAt. */
      createdAt: z.int(),
      /** Epoch ms: createdAt plus the order's days supply (null when the order has none). */
      runsOutAt: z.int().nullable(),
      /**
       * Whole days from the server's time now until it runs out (floor; negative when it already
       * has), as Refills due counts them; null when runsOutAt is.
       */
      daysLeft: z.int().nullable(),
    })
    .nullable(),
  /**
   * Epoch ms of the patient's latest cancelled order when there is no last order: an order was
   * placed, though none stands; null otherwise.
   */
  cancelledAt: z.int().nullable(),
});
export type ProtocolColumnsView = z.infer<typeof ProtocolColumnsView>;

/**
 * The list's columns a user can show or hide (the patient's always shows), in the list's order;
 * the choice is remembered on this desk (app.setProtocolColumns).
 */
export const ProtocolColumn = z.enum([
  'products',
  'supply',
  'shipping',
  'lastOrder',
  'nextRefill',
  'changed',
  'sync',
]);
export type ProtocolColumn = z.infer<typeof ProtocolColumn>;
export const ProtocolColumns = z.array(ProtocolColumn).max(ProtocolColumn.options.length);

/** Columns in the list's order, each once, whatever order they were chosen in. */
export const inListOrder = (columns: readonly ProtocolColumn[]): ProtocolColumn[] =>
  ProtocolColumn.options.filter((c) => columns.includes(c));

/**
 * How the protocol list is filtered and sorted, as a step of the undo history holds it (kind
 * 'view'): the sync states, product and refill filters, the sort and its direction (null: the
 * sort's usual one). Never the search typed: that is text, undone in its field.
 */
export const ProtocolListView = z
  .object({
    syncStates: z.array(ProtocolListState).max(ProtocolListState.options.length),
    productId: z.int('a product id').positive('a product id').nullable(),
    due: DueWindow.nullable(),
    sort: ProtocolSort,
    direction: SortDirection.nullable(),
  })
  .strict();
export type ProtocolListView = z.infer<typeof ProtocolListView>;

/** A row of the list: the summary and its columns. */
export const ProtocolRowView = ProtocolSummaryView.extend({ columns: ProtocolColumnsView });
export type ProtocolRowView = z.infer<typeof ProtocolRowView>;

/** A page of the list; how many match in all is protocols.count's (it reads every match). */
export const ProtocolPageView = z.object({
  items: z.array(ProtocolRowView),
  nextCursor: z.string().nullable(),
});
export type ProtocolPageView = z.infer<typeof ProtocolPageView>;

/** A copy of a protocol's order (products, doses, supply, shipping) for another patient. */
export const DuplicateProtocol = z.object({ localId: z.uuid(), customer: CustomerInput });

export const ConflictChoice = z.enum(['keep-mine', 'take-theirs', 'keep-both']);
export type ConflictChoice = z.infer<typeof ConflictChoice>;

/** A conflict with both versions, and the choices that make sense for its kind. */
export const ConflictView = z.object({
  localId: z.string(),
  serverId: z.string().nullable(),
  kind: ConflictKind,
  detectedAt: z.int(),
  /** The user's version; null when the user deleted the protocol. */
  mine: ProtocolDraft.nullable(),
  /** The server's version; null when the server deleted it. */
  theirs: ProtocolRead.nullable(),
  choices: z.array(ConflictChoice),
});
export type ConflictView = z.infer<typeof ConflictView>;

/** The local id of a protocol, as the calls take it. */
export const LocalProtocolId = z.object({ localId: z.uuid() });
