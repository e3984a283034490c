import { z } from 'zod';
import { ProtocolColumns, ProtocolListView } from './protocol-views';

/**
 * What made an undo step: the command of protocols it undoes (docs/decisions.md, "Undo and
 * redo"). 'untangle' is the Patient ID work (one person kept, or a person moved to a new ID).
 * 'columns' is a change of the protocol list's columns shown (a setting of this desk), 'view' of
 * its filters and sort (the window's): steps of the same history, so Ctrl+Z takes back changes
 * of protocols and of the list in the order they were made.
 */
export const UndoKind = z.enum([
  'create',
  'edit',
  'duplicate',
  'delete',
  'import',
  'resolve',
  'untangle',
  'columns',
  'view',
]);
export type UndoKind = z.infer<typeof UndoKind>;

/** The next step one way: what it would do, in words ("Edit of the protocol for Ada Lovelace"). */
export const UndoStepView = z.object({
  seq: z.int().min(1),
  kind: UndoKind,
  label: z.string(),
});
export type UndoStepView = z.infer<typeof UndoStepView>;

/** What Undo and Redo would do now: the next step each way, or null when there is none. */
export const UndoState = z.object({
  undo: UndoStepView.nullable(),
  redo: UndoStepView.nullable(),
});
export type UndoState = z.infer<typeof UndoState>;

/**
 * The step an undo or redo applied, with the protocols it wrote (a protocol brought back after
 * its delete was sent is a new protocol: its new local id is here). A step of the list's columns
 * gives the columns now shown (main has written the setting: the window shows them); one of its
 * filters and sort gives what the window is to apply (it lives only there).
 */
export const UndoOutcome = z.object({
  step: UndoStepView,
  localIds: z.array(z.string()),
  columns: ProtocolColumns.optional(),
  view: ProtocolListView.optional(),
});
export type UndoOutcome = z.infer<typeof UndoOutcome>;

/** The longest history kept per connection: the last steps not undone. */
export const UNDO_STEPS_KEPT = 50;
