import { z } from 'zod';
import {
  ORDER_TYPES,
  ProtocolDraft,
  ProtocolRead,
  ProtocolRequest,
  SHIPPING_METHODS,
  isKnown,
} from '@shared/api';
import { ConflictKind, ProtocolSyncState } from '@shared/protocol-views';
import type { Db } from '../db/db';
import { JobError, JobState } from '../jobs/job-model';
import { LIVE_CHANGE_COLUMNS, LIVE_CHANGE_JOIN, ProtocolChangeOp } from './change-queue';
import { flag, jsonText, jsonTextOrNull, parseRow, prepareCached } from '../db/rows';
import { nameSortKey, searchTextOf } from './protocol-search';

export { ProtocolDraft };

export { ConflictKind, ProtocolSyncState };

/** Why a push stopped for the user: the kind, and the server copy (null when it is gone). */
export const ProtocolConflict = z.object({
  kind: ConflictKind,
  server: ProtocolRead.nullable(),
  /** Epoch ms (local clock). */
  detectedAt: z.int(),
});
export type ProtocolConflict = z.infer<typeof ProtocolConflict>;

/** The protocol's pending change (its live job), as shown next to it. */
export const PendingChange = z.object({
  jobId: z.int(),
  op: ProtocolChangeOp,
  state: JobState,
  attempts: z.int(),
  error: JobError.nullable(),
});
export type PendingChange = z.infer<typeof PendingChange>;

const summaryColumns = {
  local_id: z.string(),
  server_id: z.string().nullable(),
  customer_name: z.string(),
  source_id: z.string(),
  email: z.string().nullable(),
  sync_state: ProtocolSyncState,
  deleted: flag,
  rev: z.int(),
  created_at: z.int(),
  local_updated_at: z.int(),
  j_id: z.int().nullable(),
  j_op: ProtocolChangeOp.nullable(),
  j_state: JobState.nullable(),
  j_attempts: z.int().nullable(),
  j_error: jsonTextOrNull(JobError),
};

type SummaryColumns = z.infer<z.ZodObject<typeof summaryColumns>>;

const summaryOf = (r: SummaryColumns) => ({
  localId: r.local_id,
  serverId: r.server_id,
  customerName: r.customer_name,
  sourceId: r.source_id,
  email: r.email,
  syncState: r.sync_state,
  deleted: r.deleted,
  rev: r.rev,
  createdAt: r.created_at,
  localUpdatedAt: r.local_updated_at,
  change:
    r.j_id !== null && r.j_op !== null && r.j_state !== null
      ? {
          jobId: r.j_id,
          op: r.j_op,
          state: r.j_state,
          attempts: r.j_attempts ?? 0,
          error: r.j_error,
        }
      : null,
});

/** A protocol as lists and search show it: columns only, no JSON to parse. */
export type ProtocolSummary = ReturnType<typeof summaryOf>;

export const ProtocolSummaryRow = z.object(summaryColumns).transform(summaryOf);

export const LocalProtocolRow = z
  .object({
    ...summaryColumns,
    base_updated_at: z.string().nullable(),
    origin: z.enum(['local', 'server']),
    draft: jsonText(ProtocolDraft),
    server: jsonTextOrNull(ProtocolRead),
    conflict: jsonTextOrNull(ProtocolConflict),
  })
  .transform((r) => ({
    ...summaryOf(r),
    /** 'server': inserted by the mirror pull; 'local': made on this desk (see migration 7). */
    origin: r.origin,
    baseUpdatedAt: r.base_updated_at,
    draft: r.draft,
    server: r.server,
    conflict: r.conflict,
  }));

/** The local model of a protocol. */
export type LocalProtocol = z.output<typeof LocalProtocolRow>;

/** Of a server copy, what an order made from the protocol takes: each line's packDescription. */
const ServerLinePacks = z.object({
  lineItems: z.array(z.object({ productId: z.int(), packDescription: z.string().optional() })),
});

/**
 * What turning a protocol into an order needs (bulk submission): its label, whether it is
 * deleted, the draft, and the packDescriptions of its server copy. A lean read of many rows: no
 * pending change, no conflict, and of the server copy only those fields.
 */
export const ProtocolOrderSourceRow = z
  .object({
    local_id: z.string(),
    customer_name: z.string(),
    source_id: z.string(),
    deleted: flag,
    draft: jsonText(ProtocolDraft),
    server: jsonTextOrNull(ServerLinePacks),
  })
  .transform((r) => ({
    localId: r.local_id,
    customerName: r.customer_name,
    sourceId: r.source_id,
    deleted: r.deleted,
    draft: r.draft,
    serverLineItems: r.server?.lineItems ?? null,
  }));
export type ProtocolOrderSource = z.output<typeof ProtocolOrderSourceRow>;

export const ORDER_SOURCE_SELECT = 'local_id, customer_name, source_id, deleted, draft, server';

/** Columns of protocols p joined with its live job j (see LIVE_CHANGE_JOIN). */
export const SUMMARY_SELECT = `p.local_id, p.server_id, p.customer_name, p.source_id, p.email,
  p.sync_state, p.deleted, p.rev, p.created_at, p.local_updated_at,
  ${LIVE_CHANGE_COLUMNS}`;
export const FULL_SELECT = `${SUMMARY_SELECT}, p.base_updated_at, p.origin, p.draft, p.server, p.conflict`;

/**
 * A row the mirror pull inserted and nothing changed since: only the server's copy. When this
 * desk's own create turns out to have made that server protocol, the row is merged away.
 */
export const isUntouchedMirrorCopy = (p: LocalProtocol): boolean =>
  p.origin === 'server' && p.syncState === 'synced' && p.change === null;

/**
 * The draft a server copy stands for. An order type or shipping method the app does not know
 * cannot be sent back: the draft has none (as a copy "decided elsewhere"), the server copy keeps
 * the value as it came, and the user chooses one before the protocol becomes an order.
 */
export function draftFromProtocol(p: ProtocolRead): ProtocolDraft {
  return {
    customer: p.customer,
    daysSupply: p.daysSupply,
    lineItems: p.lineItems.map((li) => ({
      productId: li.productId,
      quantity: li.quantity,
      ...(li.packDescription !== undefined ? { packDescription: li.packDescription } : {}),
      administration: li.administration,
    })),
    shippingMethod: known(SHIPPING_METHODS, p.shippingMethod),
    orderType: known(ORDER_TYPES, p.orderType),
  };
}

const known = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && isKnown(values, value) ? value : null;

/** The request a draft is pushed as; throws a ZodError when the draft is not a valid request. */
export const draftToRequest = (draft: ProtocolDraft): ProtocolRequest =>
  ProtocolRequest.parse(draft);

/** The denormalised columns derived from a draft (name, sourceId, email, search text). */
export function draftColumns(draft: ProtocolDraft) {
  const c = draft.customer;
  return {
    customer_name: `${c.firstName} ${c.lastName}`,
    source_id: c.sourceId,
    email: c.email ?? null,
    search_text: searchTextOf(c),
    sort_name: nameSortKey(c),
    draft: JSON.stringify(draft),
  };
}

/** Reads one protocol with its pending change, or null. */
export function readLocalProtocol(
  db: Db,
  column: 'local_id' | 'server_id',
  value: string,
): LocalProtocol | null {
  const row = prepareCached(
    db,
    `SELECT ${FULL_SELECT} FROM protocols p ${LIVE_CHANGE_JOIN} WHERE p.${column} = ?`,
  ).get(value);
  return row ? parseRow(LocalProtocolRow, row, 'protocols', `${column}=${value}`) : null;
}
