import type { ProtocolRequest } from '@shared/api';
import type { ActivityLog } from '../activity/activity-log';
import type { LocalStore } from '../stores';
import type { ChangeEffect } from '../jobs/protocol/change-queue';
import {
  listConflicts,
  resolveConflict,
  type ConflictChoice,
  type ConflictView,
  type Resolution,
} from './conflicts';
import type { LocalProtocol, ProtocolDraft } from './protocol-model';

export interface ProtocolCommandsOptions {
  store: LocalStore;
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

  create(draft: ProtocolRequest): LocalProtocol {
    return this.command(() => {
      const p = this.o.store.protocols.createDraft(draft);
      this.o.activity.record({ action: 'protocol-created', subjects: idsOf(p) });
      return p;
    });
  }

  /** Many new drafts in one transaction (a CSV import); returns their localIds. */
  importMany(drafts: readonly ProtocolRequest[], options: { skipped?: number } = {}): string[] {
    return this.command(() => {
      const ids = this.o.store.protocols.createDrafts(drafts);
      this.o.activity.record({
        action: 'csv-imported',
        subjects: { protocols: ids, patients: drafts.map((d) => d.customer.sourceId) },
        detail: { what: 'protocols', count: ids.length, skipped: options.skipped ?? 0 },
      });
      return ids;
    });
  }

  duplicate(localId: string, customer: ProtocolRequest['customer']): LocalProtocol {
    return this.command(() => {
      const source = this.o.store.protocols.get(localId);
      const p = this.o.store.protocols.duplicate(localId, customer);
      this.o.activity.record({
        action: 'protocol-duplicated',
        subjects: merged(source && idsOf(source), idsOf(p)),
      });
      return p;
    });
  }

  update(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    return this.command(() => {
      const before = this.o.store.protocols.get(localId);
      const p = this.o.store.protocols.updateDraft(localId, draft);
      this.o.activity.record({
        action: 'protocol-edited',
        subjects: merged(before && idsOf(before), idsOf(p)),
        detail: before ? { keys: changedFields(before.draft, p.draft) } : {},
      });
      return p;
    });
  }

  delete(localId: string): ChangeEffect {
    return this.command(() => {
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

  resolveConflict(localId: string, choice: ConflictChoice): Resolution {
    return this.command(() => {
      const before = this.o.store.protocols.get(localId);
      const resolution = resolveConflict(this.o.store, localId, choice);
      const copy = resolution.copyLocalId
        ? this.o.store.protocols.get(resolution.copyLocalId)
        : null;
      this.o.activity.record({
        action: 'conflict-resolved',
        subjects: merged(before && idsOf(before), copy && idsOf(copy)),
        detail: { choice, ...(before?.conflict ? { conflict: before.conflict.kind } : {}) },
      });
      return resolution;
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
  const customer = (['sourceId', 'firstName', 'lastName', 'email', 'phone', 'address'] as const)
    .filter((k) => differs(before.customer[k], after.customer[k]))
    .map((k) => `customer.${k}`);
  const order = (['daysSupply', 'shippingMethod', 'orderType', 'lineItems'] as const).filter((k) =>
    differs(before[k], after[k]),
  );
  return [...customer, ...order];
}
