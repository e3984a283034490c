import type { ProtocolListView } from '@shared/protocol-views';
import type { UndoKind, UndoOutcome, UndoState, UndoStepView } from '@shared/undo-views';
import type { ActivityLog } from '../activity/activity-log';
import { StoreError } from '../db/errors';
import type { ProtocolDraft } from './protocol-model';
import type { ProtocolStore } from './protocol-store';
import {
  viewOfStep,
  type ListPayload,
  type UndoChange,
  type UndoPayload,
  type UndoStep,
} from './undo-history';

/*
 * Undo and redo (docs/decisions.md, "Undo and redo"), after Actual Budget's `undoable`: each
 * command of protocols notes the drafts it changes, before and after, in its own transaction
 * (StepRecorder); undo puts the "before" drafts back through the same drafting writes a person's
 * edit goes through, so the change queue sees an ordinary change: an edit not sent yet is
 * coalesced back into its pending change, one already on the server is undone by a new update,
 * a delete not sent is taken back, a delete sent is undone by creating the protocol again.
 * Keep mine in a conflict is a step from the server's version it set aside to mine, so its undo
 * sends theirs again as an ordinary change.
 * The protocol list's columns and filters are steps of the same history (noteListStep): undoing
 * one gives back the columns or filters to show, which the caller applies.
 */

/** A protocol's draft as a step holds it: null when the protocol is gone or deleted. */
function draftOf(store: ProtocolStore, localId: string): ProtocolDraft | null {
  const p = store.protocols.get(localId);
  return p && !p.deleted ? p.draft : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What one command changes: `touch` the protocols it is about to write (their drafts now are
 * the "before"), `created` the protocols it made; `changes` reads the "after" of each and keeps
 * those that differ.
 */
export class StepRecorder {
  private readonly before = new Map<string, ProtocolDraft | null>();

  constructor(private readonly store: ProtocolStore) {}

  touch(localIds: readonly string[]): void {
    for (const id of localIds)
      if (!this.before.has(id)) this.before.set(id, draftOf(this.store, id));
  }

  created(localIds: readonly string[]): void {
    for (const id of localIds) if (!this.before.has(id)) this.before.set(id, null);
  }

  /**
   * A protocol whose "before" is not its draft here: keep mine in a conflict changes no draft
   * of this desk, but sets aside the server's version (`before`, null when the server deleted
   * it), which is what its undo brings back.
   */
  setAside(localId: string, before: ProtocolDraft | null): void {
    if (!this.before.has(localId)) this.before.set(localId, before);
  }

  changes(): UndoChange[] {
    const out: UndoChange[] = [];
    for (const [localId, before] of this.before) {
      const after = draftOf(this.store, localId);
      if (!same(before, after)) out.push({ localId, before, after });
    }
    return out;
  }

  /**
   * Writes the step, when the command changed anything (a save of the same draft is no step);
   * says whether it did.
   */
  push(kind: UndoKind, label: (changes: UndoChange[]) => string): boolean {
    const changes = this.changes();
    if (changes.length === 0) return false;
    this.store.undo.push(kind, label(changes), { changes });
    return true;
  }
}

/** The changes of a step of protocols; none for a step of the list's columns or filters. */
const changesOf = (payload: UndoPayload): UndoChange[] =>
  'changes' in payload ? payload.changes : [];

const COLUMNS_LABEL = 'Columns of the protocol list';

/** What of the list's filters and sort differs between two views (the label's words). */
function viewLabel({ before, after }: { before: ProtocolListView; after: ProtocolListView }) {
  const sorted = before.sort !== after.sort || before.direction !== after.direction;
  const filtered =
    !same(before.syncStates, after.syncStates) ||
    before.productId !== after.productId ||
    before.due !== after.due;
  if (sorted && filtered) return 'Filters and sort of the protocol list';
  return sorted ? 'Sort of the protocol list' : 'Filters of the protocol list';
}

/**
 * Notes a change of the protocol list's columns (kind 'columns') or of its filters and sort
 * ('view') as a step; nothing when before and after are the same. Names no patient: its label
 * names the list. Returns the step, or null. The caller holds the transaction.
 */
export function noteListStep(store: ProtocolStore, payload: ListPayload): UndoStepView | null {
  const [kind, label, change]: [UndoKind, string, { before: unknown; after: unknown }] =
    'columns' in payload
      ? ['columns', COLUMNS_LABEL, payload.columns]
      : ['view', viewLabel(payload.view), payload.view];
  if (same(change.before, change.after)) return null;
  const seq = store.undo.push(kind, label, payload);
  return { seq, kind, label };
}

const nameOf = (d: ProtocolDraft | null) =>
  d ? `${d.customer.firstName} ${d.customer.lastName}`.trim() || d.customer.sourceId : 'a patient';

/** The words a step is shown with ("Edit of the protocol for Ada Lovelace"). */
export function stepLabel(kind: UndoKind, changes: readonly UndoChange[]): string {
  const first = changes[0]!;
  const name = nameOf(first.after ?? first.before);
  const more = changes.length > 1 ? ` (${changes.length} protocols)` : '';
  switch (kind) {
    case 'create':
      return `New protocol for ${name}${more}`;
    case 'edit':
      return `Edit of the protocol for ${name}${more}`;
    case 'duplicate':
      return `Copy of the protocol for ${name}${more}`;
    case 'delete':
      return `Delete of the protocol for ${name}`;
    case 'import':
      return `Import of ${changes.length} protocol${changes.length === 1 ? '' : 's'}`;
    case 'resolve':
      return `Conflict resolution for ${name}${more}`;
    case 'untangle':
      return `Patient ID ${first.before?.customer.sourceId ?? first.after?.customer.sourceId ?? ''} untangled (${changes.length} protocol${changes.length === 1 ? '' : 's'})`;
    case 'columns':
      return COLUMNS_LABEL;
    case 'view':
      return 'Filters of the protocol list';
  }
}

/** The step meant: each of these that is given must be the step's. */
export interface StepMatch {
  seq?: number | undefined;
  kind?: UndoKind | undefined;
  /** A protocol the step changed. */
  localId?: string | undefined;
}

const matches = (step: UndoStep, which: StepMatch): boolean =>
  (which.seq === undefined || step.seq === which.seq) &&
  (which.kind === undefined || step.kind === which.kind) &&
  (which.localId === undefined || changesOf(step.payload).some((c) => c.localId === which.localId));

/** What Undo and Redo would do now. */
export function undoState(store: ProtocolStore): UndoState {
  const undo = store.undo.nextUndo();
  const redo = store.undo.nextRedo();
  return { undo: undo && viewOfStep(undo), redo: redo && viewOfStep(redo) };
}

/**
 * Undoes the newest step, or redoes the one undone last: each protocol it changed is brought to
 * its draft before (undo, newest change first) or after (redo), and the step is marked. A step
 * of the list's columns or filters writes nothing here: the outcome carries the columns or the
 * filters to show (`columns`, `view`), which the caller applies. The caller holds the
 * transaction; the activity record says so in it. Throws StoreError 'not-found' when there is
 * nothing to undo or redo; with `which`, 'invalid-state' when the next step is not the one meant
 * (a toast's Undo after something newer was done: that one is undone first).
 */
export function applyStep(
  store: ProtocolStore,
  activity: Pick<ActivityLog, 'record'>,
  way: 'undo' | 'redo',
  which: StepMatch = {},
): UndoOutcome {
  const step = way === 'undo' ? store.undo.nextUndo() : store.undo.nextRedo();
  if (!step) throw new StoreError('not-found', `Nothing to ${way}.`);
  if (!matches(step, which))
    throw new StoreError(
      'invalid-state',
      way === 'undo'
        ? `Something newer was changed since ("${step.label}"): undo that first.`
        : 'That change can no longer be redone.',
    );
  if (!('changes' in step.payload)) return applyListStep(store, activity, way, step, step.payload);
  const changes = step.payload.changes.map((c) => ({ ...c }));
  const order = way === 'undo' ? [...changes].reverse() : changes;
  // Each protocol is its own: the drafts are written back in turn, the deletes all at once (an
  // import undone: one transaction without a savepoint per protocol).
  const deletes: string[] = [];
  for (const change of order) {
    const target = way === 'undo' ? change.before : change.after;
    if (target === null) deletes.push(change.localId);
    else change.localId = bringTo(store, change.localId, target);
  }
  if (deletes.length > 0) store.protocols.deleteDrafts(deletes);
  store.undo.mark(step.seq, way === 'undo', { changes });
  const localIds = changes.map((c) => c.localId);
  const serverIds = store.protocols.serverIdsOf(localIds);
  activity.record({
    action: way,
    subjects: {
      patients: changes.flatMap((c) =>
        [c.before, c.after].flatMap((d) => (d ? [d.customer.sourceId] : [])),
      ),
      protocols: localIds,
      serverProtocols: serverIds,
    },
    detail: { step: step.kind, count: changes.length },
  });
  return { step: viewOfStep(step), localIds };
}

/** Marks a step of the list's columns or filters, and gives back what to show. */
function applyListStep(
  store: ProtocolStore,
  activity: Pick<ActivityLog, 'record'>,
  way: 'undo' | 'redo',
  step: UndoStep,
  payload: ListPayload,
): UndoOutcome {
  store.undo.mark(step.seq, way === 'undo', payload);
  // No subjects: the list's columns and filters name no patient, protocol or order.
  activity.record({ action: way, detail: { step: step.kind, count: 1 } });
  const pick = <T>(change: { before: T; after: T }) =>
    way === 'undo' ? change.before : change.after;
  return {
    step: viewOfStep(step),
    localIds: [],
    ...('columns' in payload ? { columns: pick(payload.columns) } : { view: pick(payload.view) }),
  };
}

/**
 * Brings one protocol to `target` through the drafting writes: the draft is written back over it
 * (bringing it back when its delete is not sent yet), or, when the protocol is gone (its delete
 * was sent, or it never reached the server), it is made anew: a create sent like any other.
 * Either way the draft is taken as it was, complete or not (a copy pulled without a shipping
 * method): a change the server cannot take is refused like any other, the protocol kept.
 * Returns the protocol's local id, new in the last case. (A target of null is a delete, queued
 * like any other, or dropped with a protocol never sent: deleteDrafts.)
 */
function bringTo(store: ProtocolStore, localId: string, target: ProtocolDraft): string {
  const current = store.protocols.get(localId);
  if (!current) return store.protocols.recreateDraft(target).localId;
  if (current.deleted || !same(current.draft, target))
    store.protocols.restoreDraft(localId, target);
  return localId;
}
