import type { ProtocolRequest } from '@shared/api';
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
  /**
   * After each local change: the header's counts are reported and the job runner woken, which
   * sends the change once its edits settle (the session wires the sync engine and the runner).
   */
  changed: () => void;
}

/**
 * What the user does to protocols: drafting, duplicating, deleting, importing, resolving
 * conflicts. Each writes the row and its pending change (a job) in one transaction
 * (ProtocolsRepo, conflicts.ts), then says so; sending is the job runner's, pulling the sync's.
 */
export class ProtocolCommands {
  constructor(private readonly o: ProtocolCommandsOptions) {}

  create(draft: ProtocolRequest): LocalProtocol {
    const p = this.o.store.protocols.createDraft(draft);
    this.o.changed();
    return p;
  }

  /** Many new drafts in one transaction (a CSV import); returns their localIds. */
  importMany(drafts: readonly ProtocolRequest[]): string[] {
    const ids = this.o.store.protocols.createDrafts(drafts);
    this.o.changed();
    return ids;
  }

  duplicate(localId: string, customer: ProtocolRequest['customer']): LocalProtocol {
    const p = this.o.store.protocols.duplicate(localId, customer);
    this.o.changed();
    return p;
  }

  update(localId: string, draft: ProtocolRequest | ProtocolDraft): LocalProtocol {
    const p = this.o.store.protocols.updateDraft(localId, draft);
    this.o.changed();
    return p;
  }

  delete(localId: string): ChangeEffect {
    const effect = this.o.store.protocols.deleteDraft(localId);
    this.o.changed();
    return effect;
  }

  conflicts(): ConflictView[] {
    return listConflicts(this.o.store);
  }

  resolveConflict(localId: string, choice: ConflictChoice): Resolution {
    const resolution = resolveConflict(this.o.store, localId, choice);
    this.o.changed();
    return resolution;
  }
}
