import type { ConflictChoice, ConflictKind, ConflictView } from '@shared/protocol-views';

export interface ChoiceText {
  label: string;
  /** What the choice does, in a sentence. */
  effect: string;
}

const TEXT: Record<ConflictKind, Partial<Record<ConflictChoice, ChoiceText>>> = {
  'edited-on-server': {
    'keep-mine': {
      label: 'Keep mine',
      effect: 'Your version is sent to the server and replaces theirs.',
    },
    'take-theirs': {
      label: 'Take theirs',
      effect: "Your changes are discarded; the server's version is kept here.",
    },
    'keep-both': {
      label: 'Keep both',
      effect: "The server's version stays; yours becomes a new protocol.",
    },
  },
  'deleted-on-server': {
    'keep-mine': {
      label: 'Keep mine',
      effect: 'Your version is created on the server again.',
    },
    'take-theirs': {
      label: 'Delete it here too',
      effect: 'The protocol and your changes are removed from this app.',
    },
  },
  'deleted-locally-edited-on-server': {
    'keep-mine': {
      label: 'Keep my delete',
      effect: 'The protocol is deleted on the server too.',
    },
    'take-theirs': {
      label: 'Take theirs',
      effect: "The protocol comes back here with the server's changes.",
    },
  },
};

/**
 * The choices to show for a conflict: those the view offers that mean something different. After a
 * server delete, "keep both" does exactly what "keep mine" does (nothing is left on the server to
 * keep), so only "keep mine" is shown.
 */
export function choicesOf(conflict: ConflictView): { choice: ConflictChoice; text: ChoiceText }[] {
  const texts = TEXT[conflict.kind];
  return conflict.choices.flatMap((choice) => {
    const text = texts[choice];
    return text ? [{ choice, text }] : [];
  });
}

export const KIND_TITLES: Record<ConflictKind, string> = {
  'edited-on-server': 'Changed here and on the server',
  'deleted-on-server': 'Deleted on the server, changed here',
  'deleted-locally-edited-on-server': 'Deleted here, changed on the server',
};

/** What "Keep mine" would overwrite on the server, said before it is done. */
export interface OverwriteWarning {
  title: string;
  /** What happens, in a sentence. */
  lead: string;
  /** Each field of the server's version that would be replaced: "Name: Ada Lee (theirs) → …". */
  fields: string[];
  confirmLabel: string;
}

/**
 * The confirmation a choice needs, or null: "Keep mine" replaces or deletes a server version that
 * someone changed since this desk last saw it (an undo sends that version again, but another desk
 * may have read or ordered from mine meanwhile). `name` is the
 * protocol's name; `differing` the rows that differ (conflict-rows' compareConflict).
 */
export function overwriteWarning(
  conflict: Pick<ConflictView, 'kind' | 'mine' | 'theirs'>,
  choice: ConflictChoice,
  name: string,
  differing: readonly { label: string; mine: string | null; theirs: string | null }[],
): OverwriteWarning | null {
  if (choice !== 'keep-mine' || conflict.theirs === null) return null;
  if (conflict.kind === 'deleted-locally-edited-on-server' || conflict.mine === null) {
    return {
      title: `Delete ${name} on the server?`,
      lead: `The server's version was changed since you deleted it here. Keeping your delete deletes it on the server too, with those changes.`,
      fields: [],
      confirmLabel: 'Delete it on the server',
    };
  }
  return {
    title: `Replace the server's version of ${name}?`,
    lead:
      differing.length === 0
        ? 'Your version is sent to the server and replaces theirs; no field differs.'
        : 'Your version is sent to the server and replaces theirs. These values on the server are overwritten:',
    fields: differing.map((r) => `${r.label}: "${r.theirs ?? ''}" becomes "${r.mine ?? ''}"`),
    confirmLabel: "Replace the server's version",
  };
}
