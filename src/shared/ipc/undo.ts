import { UndoOutcome, UndoState } from '../undo-views';
import { call, None, read, type AreaChannels } from './channel';

/**
 * undo.*: the connection's undo history (docs/decisions.md, "Undo and redo"). An undo or redo
 * is applied through the protocols' own commands: a change not sent yet is reverted in its
 * pending change, one already on the server is undone by a new change, sent like any other.
 */
export const undoChannels = {
  /** Undoes the newest step; 'not-found' when there is none. */
  'undo.undo': call(None, UndoOutcome),
  /** Redoes the step undone last; 'not-found' when there is none. */
  'undo.redo': call(None, UndoOutcome),
  /** What Undo and Redo would do now. */
  'undo.state': read(None, UndoState, ['protocols']),
} as const satisfies AreaChannels<'undo'>;
