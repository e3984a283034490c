import { UndoKind, UndoOutcome, UndoState, UndoStepView } from '../undo-views';
import { ProtocolListView } from '../protocol-views';
import { z } from 'zod';
import { call, None, read, type AreaChannels } from './channel';

/**
 * Which step: the next one, or only if it is the one meant (a toast's Undo names the command it
 * follows: its kind and protocol; the toast after an undo names the step by its `seq`).
 */
const StepChoice = z
  .object({
    seq: z.int().min(1).optional(),
    kind: UndoKind.optional(),
    localId: z.string().min(1).max(100).optional(),
  })
  .strict();

/**
 * undo.*: the connection's undo history (docs/decisions.md, "Undo and redo"). An undo or redo
 * is applied through the protocols' own commands: a change not sent yet is reverted in its
 * pending change, one already on the server is undone by a new change, sent like any other. The
 * protocol list's columns (this desk's setting, written again by main) and its filters and sort
 * (the window's, given back in the outcome) are steps of the same history.
 */
export const undoChannels = {
  /**
   * Undoes the newest step; 'not-found' when there is none. With `seq`, `kind` or `localId` (a
   * toast's Undo), only a step that matches: 'conflict' when another one stands before it.
   */
  'undo.undo': call(StepChoice, UndoOutcome),
  /** Redoes the step undone last (only one that matches, as for undo); 'not-found' when there is none. */
  'undo.redo': call(StepChoice, UndoOutcome),
  /**
   * A person changed the protocol list's filters or sort (never an undo, a redo or a switch of
   * connection that set them): noted as a 'view' step of the history, answered with it; null
   * when `before` and `after` are the same (no step).
   */
  'undo.noteView': call(
    z.object({ before: ProtocolListView, after: ProtocolListView }).strict(),
    UndoStepView.nullable(),
  ),
  /** What Undo and Redo would do now. */
  'undo.state': read(None, UndoState, ['undo']),
} as const satisfies AreaChannels<'undo'>;
