import type { ProtocolRequest } from '@shared/api';
import type { PatientIdChoice } from '@shared/patient-identity-views';
import type { ActivityLog } from '../activity/activity-log';
import type { ProtocolStore } from './protocol-store';
import type { ChangeEffect } from './change-queue';
import {
  listConflicts,
  resolveConflict,
  theirsDraft,
  type ConflictChoice,
  type ConflictView,
  type Resolution,
} from './conflicts';
import {
  customerKeys,
  keepOnePerson,
  moveToNewId,
  rewriteCustomers,
  settleImportRow,
  settlePatientId,
} from './patient-id-rule';
import { PatientIdClash, personKey } from './patient-identity';
import { StoreError } from '../db/errors';
import type { LocalProtocol, ProtocolDraft } from './protocol-model';
import type { UndoKind, UndoOutcome, UndoState, UndoStepView } from '@shared/undo-views';
import {
  applyStep,
  noteListStep,
  StepRecorder,
  stepLabel,
  undoState,
  type StepMatch,
} from './undo';
import type { ListPayload } from './undo-history';

export interface ProtocolCommandsOptions {
  store: ProtocolStore;
  /** Records each command in the activity record, in the transaction of its write. */
  activity: Pick<ActivityLog, 'record'>;
  /**
   * After each local change: the header's counts are reported and the job runner woken, which
   * sends the change once its edits settle (the session wires the sync engine and the runner).
   */
  changed: () => void;
}

/**
 * What the user does to protocols: drafting, duplicating, deleting, importing, resolving
 * conflicts. Each writes the row, its pending change (a job) and its activity entry in one
 * transaction (ProtocolsRepo, conflicts.ts), then says so; sending is the job runner's, pulling
 * the sync's.
 */
export class ProtocolCommands {
  constructor(private readonly o: ProtocolCommandsOptions) {}

  /**
   * Every save passes the rule of one person per Patient ID (patient-id-rule.ts): a Patient ID
   * that names someone else throws PatientIdClash unless `patientId` answers it.
   */
  create(draft: ProtocolRequest, patientId?: PatientIdChoice): LocalProtocol {
    return this.undoable('create', (step) => {
      const settled = settlePatientId(this.o.store, draft.customer, patientId);
      const p = this.o.store.protocols.createDraft({ ...draft, customer: settled.customer });
      step.created([p.localId]);
      this.o.activity.record({
        action: 'protocol-created',
        subjects: idsOf(p),
        detail: settled.choice ? { patientIdChoice: settled.choice } : {},
      });
      this.everywhere(settled, p, step);
      return p;
    });
  }

  /**
   * Many new drafts in one transaction (a CSV import); returns their localIds. `patientIds`, for
   * a file with rows whose Patient ID names another person: each row's number and answer (null:
   * none asked); every row then passes the rule in turn, the rows before it counted.
   */
  importMany(
    drafts: readonly ProtocolRequest[],
    options: {
      skipped?: number;
      patientIds?: readonly { row: number; choice: 'use-stored' | 'update-everywhere' | null }[];
    } = {},
  ): string[] {
    return this.undoable('import', (step) => {
      const rows = options.patientIds;
      const ids = rows
        ? drafts.map((draft, i) => this.importRow(draft, rows[i]!, step))
        : this.o.store.protocols.createDrafts(drafts);
      step.created(ids);
      this.o.activity.record({
        action: 'csv-imported',
        subjects: { protocols: ids, patients: drafts.map((d) => d.customer.sourceId) },
        detail: { what: 'protocols', count: ids.length, skipped: options.skipped ?? 0 },
      });
      return ids;
    });
  }

  /** One row of an import that asked about Patient IDs: the rule, then the draft. */
  private importRow(
    draft: ProtocolRequest,
    row: { row: number; choice: 'use-stored' | 'update-everywhere' | null },
    step: StepRecorder,
  ): string {
    let settled;
    try {
      settled = settleImportRow(this.o.store, draft.customer, row.choice);
    } catch (error) {
      if (!(error instanceof PatientIdClash)) throw error;
      throw new StoreError(
        'invalid-state',
        `Row ${row.row}: ${error.message} Nothing was imported; look at the preview again.`,
      );
    }
    const [localId] = this.o.store.protocols.createDrafts([
      { ...draft, customer: settled.customer },
    ]);
    step.created([localId!]);
    const p = this.o.store.protocols.get(localId!);
    if (p) this.everywhere(settled, p, step);
    return localId!;
  }

  duplicate(
    localId: string,
    customer: ProtocolRequest['customer'],
    patientId?: PatientIdChoice,
  ): LocalProtocol {
    return this.undoable('duplicate', (step) => {
      const source = this.o.store.protocols.get(localId);
      const settled = settlePatientId(this.o.store, customer, patientId);
      const p = this.o.store.protocols.duplicate(localId, settled.customer);
      step.created([p.localId]);
      this.o.activity.record({
        action: 'protocol-duplicated',
        subjects: merged(source && idsOf(source), idsOf(p)),
        detail: settled.choice ? { patientIdChoice: settled.choice } : {},
      });
      this.everywhere(settled, p, step);
      return p;
    });
  }

  /**
   * The rule is asked only when the save gives the protocol another Patient ID or name: saving
   * a protocol of an ID that already named two people changes nothing of that (the review does).
   */
  update(
    localId: string,
    draft: ProtocolRequest | ProtocolDraft,
    patientId?: PatientIdChoice,
  ): LocalProtocol {
    return this.undoable('edit', (step) => {
      step.touch([localId]);
      const before = this.o.store.protocols.get(localId);
      const same =
        before !== null &&
        before.draft.customer.sourceId === draft.customer.sourceId &&
        personKey(before.draft.customer) === personKey(draft.customer);
      const settled = same
        ? { customer: draft.customer, everywhere: [], choice: null }
        : settlePatientId(this.o.store, draft.customer, patientId, localId);
      const p = this.o.store.protocols.updateDraft(localId, {
        ...draft,
        customer: settled.customer,
      });
      this.o.activity.record({
        action: 'protocol-edited',
        subjects: merged(before && idsOf(before), idsOf(p)),
        detail: {
          ...(before ? { keys: changedFields(before.draft, p.draft) } : {}),
          ...(settled.choice ? { patientIdChoice: settled.choice } : {}),
        },
      });
      this.everywhere(settled, p, step);
      return p;
    });
  }

  /** Untangling a shared ID: one person's details on every protocol of the ID. */
  keepOnePerson(sourceId: string, keep: string): number {
    return this.undoable('untangle', (step) => {
      step.touch(this.o.store.protocols.localIdsOfPatient(sourceId));
      return keepOnePerson(this.o.store, this.o.activity, sourceId, keep);
    });
  }

  /** Untangling a shared ID: one person's protocols to a new Patient ID. */
  moveToNewId(sourceId: string, person: string, newSourceId: string): number {
    return this.undoable('untangle', (step) => {
      step.touch(this.o.store.protocols.localIdsOfPatient(sourceId));
      return moveToNewId(this.o.store, this.o.activity, sourceId, person, newSourceId);
    });
  }

  /** 'update-everywhere': the saved protocol's details on the ID's other protocols. */
  private everywhere(
    settled: { everywhere: string[] },
    saved: LocalProtocol,
    step: StepRecorder,
  ): void {
    if (settled.everywhere.length === 0) return;
    step.touch(settled.everywhere);
    const customer = saved.draft.customer;
    rewriteCustomers(
      this.o.store,
      this.o.activity,
      settled.everywhere,
      () => customer,
      'update-everywhere',
    );
  }

  delete(localId: string): ChangeEffect {
    return this.undoable('delete', (step) => {
      step.touch([localId]);
      const before = this.o.store.protocols.get(localId);
      const effect = this.o.store.protocols.deleteDraft(localId);
      this.o.activity.record({
        action: 'protocol-deleted',
        subjects: before ? idsOf(before) : { protocols: [localId] },
        detail: { effect },
      });
      return effect;
    });
  }

  conflicts(): ConflictView[] {
    return listConflicts(this.o.store);
  }

  /** `undoable`: whether the resolution is a step (one that changed nothing, mine and theirs alike, is none). */
  resolveConflict(localId: string, choice: ConflictChoice): Resolution & { undoable: boolean } {
    return this.command(() => {
      const step = new StepRecorder(this.o.store);
      const before = this.o.store.protocols.get(localId);
      // Keep mine changes no draft here: what it changes is the server's version, set aside.
      if (choice === 'keep-mine' && before?.conflict) step.setAside(localId, theirsDraft(before));
      step.touch([localId]);
      const resolution = resolveConflict(this.o.store, localId, choice);
      if (resolution.localId) step.touch([resolution.localId]);
      if (resolution.copyLocalId) step.created([resolution.copyLocalId]);
      const copy = resolution.copyLocalId
        ? this.o.store.protocols.get(resolution.copyLocalId)
        : null;
      this.o.activity.record({
        action: 'conflict-resolved',
        subjects: merged(before && idsOf(before), copy && idsOf(copy)),
        detail: { choice, ...(before?.conflict ? { conflict: before.conflict.kind } : {}) },
      });
      return { ...resolution, undoable: step.push('resolve', (c) => stepLabel('resolve', c)) };
    });
  }

  /** What Undo and Redo would do now. */
  undoState(): UndoState {
    return undoState(this.o.store);
  }

  /**
   * Undoes the newest step through the drafting writes (undo.ts); 'not-found' when none.
   * `inside` runs in the step's transaction with its outcome (the desk's columns are written
   * there: a write that fails leaves the step as it was).
   */
  undo(which: StepMatch = {}, inside?: (outcome: UndoOutcome) => void): UndoOutcome {
    return this.applyStep('undo', which, inside);
  }

  /** Redoes the step undone last; 'not-found' when none. `inside` as for undo. */
  redo(which: StepMatch = {}, inside?: (outcome: UndoOutcome) => void): UndoOutcome {
    return this.applyStep('redo', which, inside);
  }

  /** Undo or redo (undo.ts, applyStep), then `inside`, in one transaction. */
  applyStep(
    way: 'undo' | 'redo',
    which: StepMatch,
    inside?: (outcome: UndoOutcome) => void,
  ): UndoOutcome {
    return this.command(() => {
      const outcome = applyStep(this.o.store, this.o.activity, way, which);
      inside?.(outcome);
      return outcome;
    });
  }

  /**
   * Notes a change of the protocol list's columns or filters as a step (undo.ts, noteListStep),
   * and runs `write` (the change itself, when main keeps it) in the same transaction. No protocol
   * changed: nothing is told but the step (the `undo` subject).
   */
  noteListStep(payload: ListPayload, write?: () => void): UndoStepView | null {
    return this.o.store.transaction(() => {
      const step = noteListStep(this.o.store, payload);
      write?.();
      return step;
    });
  }

  /**
   * A command a person can undo: what `write` changes is noted (StepRecorder) and written as a
   * step of the undo history in the same transaction.
   */
  private undoable<T>(kind: UndoKind, write: (step: StepRecorder) => T): T {
    return this.command(() => {
      const step = new StepRecorder(this.o.store);
      const result = write(step);
      step.push(kind, (changes) => stepLabel(kind, changes));
      return result;
    });
  }

  /** The write and its entry in one transaction, then the change is told. */
  private command<T>(write: () => T): T {
    const result = this.o.store.transaction(write);
    this.o.changed();
    return result;
  }
}

/** A protocol's ids: its patient, its local id, its server id when it has one. */
const idsOf = (p: LocalProtocol) => ({
  patients: [p.sourceId],
  protocols: [p.localId],
  serverProtocols: p.serverId ? [p.serverId] : [],
});

/** The ids of several protocols together (compacted by the log). */
function merged(...all: (ReturnType<typeof idsOf> | null)[]) {
  const present = all.filter((ids) => ids !== null);
  return {
    patients: present.flatMap((ids) => ids.patients),
    protocols: present.flatMap((ids) => ids.protocols),
    serverProtocols: present.flatMap((ids) => ids.serverProtocols),
  };
}

/** The names of the draft's fields an edit changed (never their values). */
function changedFields(before: ProtocolDraft, after: ProtocolDraft): string[] {
  const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  const customer = customerKeys(before.customer, after.customer);
  const order = (['daysSupply', 'shippingMethod', 'orderType', 'lineItems'] as const).filter((k) =>
    differs(before[k], after[k]),
  );
  return [...customer, ...order];
}
