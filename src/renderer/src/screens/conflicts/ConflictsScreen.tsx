import { useState } from 'react';
import { Link } from 'wouter';
import type { ConflictChoice, ConflictView } from '@shared/protocol-views';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { plural } from '@renderer/lib/format';
import { useUndoStore, type UndoWhich } from '@renderer/stores/undo-store';
import { ConflictCard } from './ConflictCard';
import { customerName } from './conflict-rows';
import { useProductNames } from './use-product-names';
import { resolveConflict, useConflicts } from './use-conflicts';
import '@renderer/styles/conflicts.css';

/** A stable empty list while loading (a new [] each render would re-run the name lookup). */
const NONE: ConflictView[] = [];

/** What the last choice did, said once at the top of the screen. */
interface Outcome {
  text: string;
  link: { href: string; label: string } | null;
  /**
   * The step Undo takes back (keep mine's undo sends theirs again); null when the choice changed
   * nothing (mine and theirs alike), so there is nothing to undo.
   */
  undo: UndoWhich | null;
}

function outcomeOf(
  conflict: ConflictView,
  choice: ConflictChoice,
  result: { localId: string | null; copyLocalId: string | null; undoable: boolean },
): Outcome {
  return {
    ...saidOf(conflict, choice, result),
    undo: result.undoable ? { kind: 'resolve', localId: conflict.localId } : null,
  };
}

function saidOf(
  conflict: ConflictView,
  choice: ConflictChoice,
  result: { localId: string | null; copyLocalId: string | null },
): Omit<Outcome, 'undo'> {
  const name = customerName(conflict.mine) ?? customerName(conflict.theirs) ?? 'The protocol';
  const theirsName = customerName(conflict.theirs) ?? name;
  const open = (localId: string | null, label: string) =>
    localId ? { href: `/protocols/${localId}`, label } : null;
  if (choice === 'keep-both') {
    return {
      text: `Kept both: ${theirsName} keeps the server's version, and your version (${name}) is a new protocol that will be sent to the server.`,
      link: open(result.copyLocalId, 'Open the copy'),
    };
  }
  if (conflict.kind === 'deleted-on-server') {
    return choice === 'keep-mine'
      ? {
          text: `Kept yours: ${name} will be created on the server again.`,
          link: open(result.localId, `Open ${name}`),
        }
      : { text: `Deleted ${name} here too, as on the server.`, link: null };
  }
  if (conflict.kind === 'deleted-locally-edited-on-server') {
    return choice === 'keep-mine'
      ? { text: `Kept your delete: ${name} will be deleted on the server too.`, link: null }
      : {
          text: `Restored ${name} with the server's changes.`,
          link: open(result.localId, `Open ${name}`),
        };
  }
  return choice === 'keep-mine'
    ? {
        text: `Kept yours: your version of ${name} will replace the server's.`,
        link: open(result.localId, `Open ${name}`),
      }
    : {
        text: `Took theirs: your changes to ${name} were discarded for the server's version.`,
        link: open(result.localId, `Open ${name}`),
      };
}

/** Protocols changed here and on the server: mine and theirs side by side, and a choice each. */
export default function ConflictsScreen() {
  // Live: the conflicts are read again whenever protocols or their jobs change.
  const read = useConflicts();
  const conflicts = read.data;
  const error = read.status === 'failed' ? read.error : null;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [onlyDifferences, setOnlyDifferences] = useState(false);
  const undo = useUndoStore((s) => s.undo);
  const productName = useProductNames(conflicts ?? NONE);

  const resolve = async (conflict: ConflictView, choice: ConflictChoice) => {
    const result = await resolveConflict(conflict.localId, choice);
    if (!result.ok) return result.error;
    // The resolved one leaves the list with the change main announces.
    setOutcome(outcomeOf(conflict, choice, result.value));
    return null;
  };

  return (
    <div className="screen conflicts-screen">
      <div className="screen-head">
        <h1>Conflicts</h1>
        {conflicts && conflicts.length > 0 && (
          <div className="conflicts-tools">
            <label className="conflicts-toggle">
              <input
                type="checkbox"
                checked={onlyDifferences}
                onChange={(e) => setOnlyDifferences(e.target.checked)}
              />
              Only the fields that differ
            </label>
            <p className="summary muted">{plural(conflicts.length, 'conflict')} to resolve</p>
          </div>
        )}
      </div>
      <p className="lead">
        These protocols were changed here and on the server before they could be synced. Choose
        which version to keep; nothing is sent for them until you do.
      </p>
      <div role="status" className="conflicts-outcome">
        {outcome && (
          <div className="notice notice-success">
            <p className="notice-title">{outcome.text}</p>
            {outcome.link && <Link href={outcome.link.href}>{outcome.link.label}</Link>}
            {outcome.undo && (
              <button
                type="button"
                className="button button-small"
                onClick={() => {
                  setOutcome(null);
                  void undo(outcome.undo ?? undefined);
                }}
              >
                Undo
              </button>
            )}
          </div>
        )}
      </div>
      {error && !conflicts ? (
        <Failed what="The conflicts could not be loaded." error={error} onRetry={read.refresh} />
      ) : !conflicts ? (
        <Loading label="Loading conflicts…" />
      ) : conflicts.length === 0 ? (
        <Empty title="No conflicts">
          <p className="muted">
            Every protocol agrees with the server.{' '}
            <Link href="/protocols">Go to the protocols</Link>.
          </p>
        </Empty>
      ) : (
        conflicts.map((conflict) => (
          <ConflictCard
            key={conflict.localId}
            conflict={conflict}
            productName={productName}
            onlyDifferences={onlyDifferences}
            onResolve={(choice) => resolve(conflict, choice)}
          />
        ))
      )}
    </div>
  );
}
