import { z } from 'zod';
import type { ProtocolRead } from '@shared/api';
import type { CoreEvents } from '@shared/core-events';
import { StoreError } from '../db';
import type { ProtocolStore } from './protocol-store';
import type { ConflictChoice, ConflictView } from '@shared/protocol-views';
import {
  draftFromProtocol,
  type ConflictKind,
  type LocalProtocol,
  type ProtocolDraft,
} from './protocol-model';

export type { ConflictChoice, ConflictView };

/** What a resolution did: the protocol's local id(s) afterwards (keep both makes a second one). */
export interface Resolution {
  localId: string | null;
  copyLocalId: string | null;
}

const CHOICES: Record<ConflictKind, ConflictChoice[]> = {
  'edited-on-server': ['keep-mine', 'take-theirs', 'keep-both'],
  // Keep both after a server delete = keep mine: the user's version becomes a new server protocol.
  'deleted-on-server': ['keep-mine', 'take-theirs', 'keep-both'],
  // The user deleted it: there is no second version to keep.
  'deleted-locally-edited-on-server': ['keep-mine', 'take-theirs'],
};

/** A protocol the user deleted has no second version to keep. */
const choicesFor = (p: LocalProtocol, kind: ConflictKind): ConflictChoice[] =>
  p.deleted ? CHOICES[kind].filter((c) => c !== 'keep-both') : CHOICES[kind];

/** The server's version of a conflicted protocol: the newer of the recorded copy and the pulled one. */
function theirsOf(p: LocalProtocol): ProtocolRead | null {
  if (!p.conflict || p.conflict.kind === 'deleted-on-server') return null;
  const recorded = p.conflict.server;
  const pulled = p.server;
  if (!recorded) return pulled;
  if (!pulled || pulled.id !== recorded.id) return recorded;
  return Date.parse(pulled.updatedAt) > Date.parse(recorded.updatedAt) ? pulled : recorded;
}

/**
 * What keep mine sets aside, as a draft: the server's version ("theirs", made a draft as take
 * theirs makes it), or null when the server deleted the protocol. An undo of keep mine brings the
 * protocol to it (docs/decisions.md, "Undo and redo").
 */
export function theirsDraft(p: LocalProtocol): ProtocolDraft | null {
  const theirs = theirsOf(p);
  return theirs && draftFromProtocol(theirs);
}

function view(p: LocalProtocol): ConflictView | null {
  if (!p.conflict) return null;
  return {
    localId: p.localId,
    serverId: p.serverId,
    kind: p.conflict.kind,
    detectedAt: p.conflict.detectedAt,
    mine: p.deleted ? null : p.draft,
    theirs: theirsOf(p),
    choices: choicesFor(p, p.conflict.kind),
  };
}

/** Every protocol waiting for the user to resolve a conflict, last local change first (the list's default order). */
export function listConflicts(store: ProtocolStore): ConflictView[] {
  const out: ConflictView[] = [];
  let cursor: string | null = null;
  do {
    const page = store.protocols.list({
      syncStates: ['conflict'],
      includeDeleted: true,
      limit: 500,
      cursor,
    });
    for (const summary of page.items) {
      const p = store.protocols.get(summary.localId);
      const v = p && view(p);
      if (v) out.push(v);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

/** How many protocols are in conflict. */
export function countConflicts(store: ProtocolStore): number {
  const row = store.db
    .prepare("SELECT COUNT(*) AS n FROM protocols WHERE sync_state = 'conflict'")
    .get();
  return z.object({ n: z.int().min(0) }).parse(row).n;
}

/**
 * The outbox-count event: protocol changes waiting to be sent (queued, in flight, or refused by
 * the server: still unsent), in doubt, and protocols in conflict (whose change is stopped).
 */
export function outboxCount(store: ProtocolStore): CoreEvents['outbox-count'] {
  const counts = store.jobs.counts({ kind: 'protocol' });
  const conflicts = countConflicts(store);
  return {
    pending: Math.max(0, counts.queued + counts.sending + counts.rejected - conflicts),
    inDoubt: counts.in_doubt,
    conflicts,
  };
}

/**
 * Resolves a conflict in one transaction; the pending change is then what the choice needs (keep
 * mine: the user's content sent on the server's current base; take theirs: the server copy, or
 * the protocol removed; keep both: the user's content as a new protocol). Each kind of conflict:
 * docs/decisions.md, "Conflict resolutions".
 */
export function resolveConflict(
  store: ProtocolStore,
  localId: string,
  choice: ConflictChoice,
): Resolution {
  return store.transaction((): Resolution => {
    const p = store.protocols.get(localId);
    if (!p) throw new StoreError('not-found', `No protocol ${localId}.`);
    if (!p.conflict || p.syncState !== 'conflict')
      throw new StoreError('invalid-state', `Protocol ${localId} has no conflict to resolve.`);
    const kind = p.conflict.kind;
    if (!choicesFor(p, kind).includes(choice))
      throw new StoreError('invalid-state', `"${choice}" does not apply to a ${kind} conflict.`);

    if (kind === 'deleted-on-server') {
      if (choice === 'take-theirs') {
        store.protocols.forget(localId);
        return { localId: null, copyLocalId: null };
      }
      const effect = store.protocols.detachFromServer(localId);
      return { localId: effect === 'dropped' ? null : localId, copyLocalId: null };
    }

    const theirs = theirsOf(p);
    if (!theirs)
      throw new StoreError('invalid-state', `Protocol ${localId} has no server copy recorded.`);
    if (choice === 'keep-mine') {
      store.protocols.rebaseOnServer(localId, theirs);
      return { localId, copyLocalId: null };
    }
    if (choice === 'take-theirs') {
      store.protocols.takeServer(localId, theirs);
      return { localId, copyLocalId: null };
    }
    const copy = store.protocols.createDraft(p.draft);
    store.protocols.takeServer(localId, theirs);
    return { localId, copyLocalId: copy.localId };
  });
}
