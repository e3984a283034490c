import { z } from 'zod';
import { ProtocolColumns, ProtocolListView } from '@shared/protocol-views';
import { UNDO_STEPS_KEPT, UndoKind, type UndoStepView } from '@shared/undo-views';
import type { Clock } from '../clock';
import type { Db } from '../db/db';
import { flag, jsonText, parseRow, prepareCached } from '../db/rows';
import { ProtocolDraft } from './protocol-model';

/**
 * One protocol a step changed: its draft before and after the command (null: the protocol did
 * not exist, or was deleted). Undo puts `before` back, redo `after`, through the drafting
 * commands (undo.ts).
 */
export const UndoChange = z.object({
  localId: z.string().min(1),
  before: ProtocolDraft.nullable(),
  after: ProtocolDraft.nullable(),
});
export type UndoChange = z.infer<typeof UndoChange>;

/** The protocols a command changed (every step of protocols; the rows of migration 17). */
const ChangesPayload = z.object({ changes: z.array(UndoChange).min(1) });
/** The protocol list's columns shown (a setting of this desk), before and after (kind 'columns'). */
const ColumnsPayload = z.object({
  columns: z.object({ before: ProtocolColumns, after: ProtocolColumns }),
});
/** The protocol list's filters and sort, before and after (kind 'view'): no patient data. */
const ViewPayload = z.object({
  view: z.object({ before: ProtocolListView, after: ProtocolListView }),
});

/** What a step holds, as undo_steps.payload keeps it (JSON, read back with this schema). */
export const UndoPayload = z.union([ChangesPayload, ColumnsPayload, ViewPayload]);
export type UndoPayload = z.infer<typeof UndoPayload>;
export type ColumnsPayload = z.infer<typeof ColumnsPayload>;
export type ViewPayload = z.infer<typeof ViewPayload>;
/** A step of the list's columns or of its filters and sort. */
export type ListPayload = ColumnsPayload | ViewPayload;

const UndoStepRow = z
  .object({
    seq: z.int().min(1),
    kind: UndoKind,
    label: z.string(),
    payload: jsonText(UndoPayload),
    undone: flag,
  })
  .transform((r) => ({
    seq: r.seq,
    kind: r.kind,
    label: r.label,
    payload: r.payload,
    undone: r.undone,
  }));
export type UndoStep = z.output<typeof UndoStepRow>;

export const viewOfStep = (s: UndoStep): UndoStepView => ({
  seq: s.seq,
  kind: s.kind,
  label: s.label,
});

/**
 * The undo history of one connection (its store's undo_steps, migration 17). A step is written
 * in the transaction of the command it undoes; the steps undone are always the newest ones (a
 * new step drops them), so the next undo is the newest step not undone and the next redo the
 * oldest undone.
 */
export class UndoHistory {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * A new step: the undone steps go (nothing to redo after a new change), the oldest beyond 50.
   * Returns its seq.
   */
  push(kind: UndoKind, label: string, payload: UndoPayload): number {
    prepareCached(this.db, 'DELETE FROM undo_steps WHERE undone = 1').run();
    const seq = Number(
      prepareCached(
        this.db,
        'INSERT INTO undo_steps (kind, label, payload, undone, at) VALUES (?, ?, ?, 0, ?)',
      ).run(kind, label, JSON.stringify(payload), this.clock.now()).lastInsertRowid,
    );
    prepareCached(
      this.db,
      `DELETE FROM undo_steps WHERE seq <= (SELECT seq FROM undo_steps ORDER BY seq DESC
         LIMIT 1 OFFSET ${UNDO_STEPS_KEPT})`,
    ).run();
    return seq;
  }

  /** The newest step not undone, or null. */
  nextUndo(): UndoStep | null {
    return this.one('SELECT * FROM undo_steps WHERE undone = 0 ORDER BY seq DESC LIMIT 1');
  }

  /** The step undone last (the oldest undone), or null. */
  nextRedo(): UndoStep | null {
    return this.one('SELECT * FROM undo_steps WHERE undone = 1 ORDER BY seq ASC LIMIT 1');
  }

  /**
   * Marks a step undone or done again, with its payload as applied (a step of protocols: the
   * ids of protocols made anew).
   */
  mark(seq: number, undone: boolean, payload: UndoPayload): void {
    prepareCached(this.db, 'UPDATE undo_steps SET undone = ?, payload = ? WHERE seq = ?').run(
      undone ? 1 : 0,
      JSON.stringify(payload),
      seq,
    );
  }

  /** How many steps are kept (tests, and the count the trim keeps). */
  count(): number {
    return (prepareCached(this.db, 'SELECT COUNT(*) AS n FROM undo_steps').get() as { n: number })
      .n;
  }

  private one(sql: string): UndoStep | null {
    const row = prepareCached(this.db, sql).get();
    return row
      ? parseRow(UndoStepRow, row, 'undo_steps', `seq=${(row as { seq: unknown }).seq}`)
      : null;
  }
}
