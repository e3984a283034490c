import { randomUUID } from 'node:crypto';
import { ProtocolDraft as ProtocolDraftSchema, type ProtocolRequest } from '@shared/api';
import { CustomerInput, ProtocolInput } from '@shared/protocol-input';
import { StoreError } from '../db/errors';
import { prepareCached, runTransaction } from '../db/rows';
import { liveChange, reconcileChange, type ChangeEffect } from './change-queue';
import { draftColumns, type LocalProtocol, type ProtocolDraft } from './protocol-model';
import { requireProtocol } from './protocol-reads';
import type { ProtocolContext } from './server-changes';

/**
 * A new protocol drafted locally: the row and its pending create, in one transaction. The draft
 * must be a valid ProtocolInput (parsed here: a ZodError lists what is wrong); a stored
 * ProtocolDraft may be passed back (keep both).
 */
export function createDraft(
  ctx: ProtocolContext,
  draft: ProtocolRequest | ProtocolDraft,
): LocalProtocol {
  return insertOne(ctx, ProtocolInput.parse(draft));
}

/**
 * Many new protocols drafted locally (a CSV import): every row and its pending create in ONE
 * transaction, so either all of them are written or, when one fails, none. Each draft must be a
 * valid ProtocolInput (a ZodError otherwise). Returns the new localIds, in order.
 */
export function createDrafts(ctx: ProtocolContext, drafts: readonly ProtocolRequest[]): string[] {
  const parsed = drafts.map((d) => ProtocolInput.parse(d));
  const now = ctx.clock.now();
  // No savepoint per row (createDraft nested would make one): FTS5 flushes at each savepoint.
  return runTransaction(ctx.db, () => parsed.map((d) => insertDraft(ctx, d, now)));
}

/**
 * Undo and redo (undo.ts): a protocol that is gone (its delete was sent, or it never reached the
 * server) made anew with the draft it had, complete or not, as restoreDraft puts one back: a copy
 * pulled without a shipping method was so before. Its pending create is sent like any other; one
 * the server cannot take is refused and waits for the person, the protocol kept
 * (docs/decisions.md, "Undo and redo").
 */
export function recreateDraft(ctx: ProtocolContext, draft: ProtocolDraft): LocalProtocol {
  return insertOne(ctx, ProtocolDraftSchema.parse(draft));
}

/** One new local draft, already checked, and its pending create in its own transaction. */
function insertOne(ctx: ProtocolContext, d: ProtocolDraft): LocalProtocol {
  const now = ctx.clock.now();
  return requireProtocol(
    ctx.db,
    runTransaction(ctx.db, () => insertDraft(ctx, d, now)),
  );
}

/** The row of a new local draft and its pending create; inside the caller's transaction. */
function insertDraft(ctx: ProtocolContext, d: ProtocolDraft, now: number): string {
  const localId = randomUUID();
  prepareCached(
    ctx.db,
    `INSERT INTO protocols (local_id, customer_name, source_id, email, search_text, sort_name, draft,
       sync_state, created_at, local_updated_at)
     VALUES (@local_id, @customer_name, @source_id, @email, @search_text, @sort_name, @draft, 'pending', @now, @now)`,
  ).run({ local_id: localId, now, ...draftColumns(d) });
  reconcileChange(ctx, localId, true);
  return localId;
}

/**
 * A new local protocol with the order of `localId` (its current draft: products, doses,
 * supply, shipping, order type) for another patient, queued for the server as any create.
 * Throws a ZodError when the copy is not a valid protocol (a draft pulled incomplete).
 */
export function duplicateDraft(
  ctx: ProtocolContext,
  localId: string,
  customer: ProtocolRequest['customer'],
): LocalProtocol {
  return runTransaction(ctx.db, () => {
    const source = requireProtocol(ctx.db, localId);
    if (source.deleted)
      throw new StoreError('invalid-state', 'This protocol was deleted; it cannot be copied.');
    return createDraft(ctx, { ...source.draft, customer });
  });
}

/** Replaces the draft (full replacement, as PUT): the row and the coalesced pending change. */
export function updateDraft(
  ctx: ProtocolContext,
  localId: string,
  draft: ProtocolRequest | ProtocolDraft,
): LocalProtocol {
  const d = ProtocolInput.parse(draft);
  runTransaction(ctx.db, () => {
    writeDraft(ctx, localId, d);
  });
  return requireProtocol(ctx.db, localId);
}

/**
 * Only the patient's details change (one person's details everywhere, a person moved to a new
 * Patient ID): the customer must be a valid CustomerInput; the rest of the draft stays as it
 * is, complete or not (a copy pulled without a shipping method keeps waiting for one).
 */
export function replaceCustomer(
  ctx: ProtocolContext,
  localId: string,
  customer: ProtocolDraft['customer'],
): LocalProtocol {
  const c = CustomerInput.parse(customer);
  runTransaction(ctx.db, () => {
    const current = requireProtocol(ctx.db, localId);
    writeDraft(ctx, localId, ProtocolDraftSchema.parse({ ...current.draft, customer: c }));
  });
  return requireProtocol(ctx.db, localId);
}

/** Writes a draft over a protocol not deleted, with its coalesced pending change. */
function writeDraft(ctx: ProtocolContext, localId: string, d: ProtocolDraft): void {
  const current = requireProtocol(ctx.db, localId);
  if (current.deleted) throw new StoreError('invalid-state', `Protocol ${localId} was deleted.`);
  prepareCached(
    ctx.db,
    `UPDATE protocols SET customer_name = @customer_name, source_id = @source_id, email = @email,
         search_text = @search_text, sort_name = @sort_name, draft = @draft, rev = rev + 1, local_updated_at = @now,
         sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
       WHERE local_id = @local_id`,
  ).run({ local_id: localId, now: ctx.clock.now(), ...draftColumns(d) });
  reconcileChange(ctx, localId, true);
}

/**
 * Deletes a protocol locally. 'dropped': it never reached the server and is gone with its
 * pending change; 'queued': a delete waits to be sent; 'deferred': a change is in flight and the
 * delete follows when it settles. Deleting a deleted protocol does nothing.
 */
export function deleteDraft(ctx: ProtocolContext, localId: string): ChangeEffect {
  return runTransaction(ctx.db, () => deleteOne(ctx, localId));
}

/**
 * Many deletes (an import undone) in ONE transaction, each as deleteDraft: no savepoint per
 * protocol (FTS5 flushes at each savepoint). A protocol already gone is left out ('dropped').
 */
export function deleteDrafts(ctx: ProtocolContext, localIds: readonly string[]): ChangeEffect[] {
  return runTransaction(ctx.db, () =>
    localIds.map((localId) => deleteOne(ctx, localId, { missing: 'dropped' })),
  );
}

/** One delete, inside the caller's transaction; a protocol not there throws unless `missing`. */
function deleteOne(
  ctx: ProtocolContext,
  localId: string,
  options: { missing?: 'dropped' } = {},
): ChangeEffect {
  const state = prepareCached(ctx.db, 'SELECT deleted FROM protocols WHERE local_id = ?').get(
    localId,
  ) as { deleted: 0 | 1 } | undefined;
  if (!state && options.missing) return options.missing;
  const current = state?.deleted === 0 ? null : requireProtocol(ctx.db, localId);
  if (current?.deleted) return current.change?.op === 'delete' ? 'queued' : 'deferred';
  prepareCached(
    ctx.db,
    `UPDATE protocols SET deleted = 1, local_updated_at = ?,
       sync_state = CASE sync_state WHEN 'conflict' THEN 'conflict' ELSE 'pending' END
     WHERE local_id = ?`,
  ).run(ctx.clock.now(), localId);
  return reconcileChange(ctx, localId, true);
}

/**
 * Undo and redo (undo.ts): puts a draft back as it was, complete or not (a copy pulled without a
 * shipping method was so before). A protocol deleted here whose delete has not been sent comes
 * back: its pending delete becomes the update (or create) it was. A delete being sent, in doubt or
 * stopped by a conflict cannot be taken back here (StoreError 'invalid-state').
 */
export function restoreDraft(
  ctx: ProtocolContext,
  localId: string,
  draft: ProtocolDraft,
): LocalProtocol {
  const d = ProtocolDraftSchema.parse(draft);
  runTransaction(ctx.db, () => {
    const current = requireProtocol(ctx.db, localId);
    if (current.deleted) {
      const live = liveChange(ctx, localId);
      const open =
        live === null ||
        live.state === 'queued' ||
        (live.state === 'rejected' && current.syncState !== 'conflict');
      if (!open)
        throw new StoreError(
          'invalid-state',
          'The delete of this protocol is being sent or waits for a conflict to be resolved; it cannot be undone now.',
        );
      prepareCached(ctx.db, 'UPDATE protocols SET deleted = 0 WHERE local_id = ?').run(localId);
    }
    writeDraft(ctx, localId, d);
  });
  return requireProtocol(ctx.db, localId);
}
