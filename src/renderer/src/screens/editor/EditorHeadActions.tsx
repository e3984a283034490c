import { CalendarDays, Copy, Trash2, UserRound } from 'lucide-react';
import { Link } from 'wouter';
import type { ProtocolView } from '@shared/protocol-views';
import { patientHref } from '@renderer/lib/patient-href';

interface Props {
  view: ProtocolView;
  /** Unsaved changes: the schedule and the copy wait for them to be saved. */
  isDirty: boolean;
  onDuplicate(): void;
  onDelete(): void;
}

/** What a saved protocol offers beside its title: its patient, schedule, a copy, delete. */
export function EditorHeadActions({ view, isDirty, onDuplicate, onDelete }: Props) {
  return (
    <div className="editor-head-actions">
      <Link href={patientHref(view.sourceId)} className="button">
        <UserRound aria-hidden="true" size={16} /> Patient
      </Link>
      {isDirty ? (
        <button type="button" className="button" disabled title="Save your changes first">
          <CalendarDays aria-hidden="true" size={16} /> Dosing schedule
        </button>
      ) : (
        <Link href={`/protocols/${view.localId}/schedule`} className="button">
          <CalendarDays aria-hidden="true" size={16} /> Dosing schedule
        </Link>
      )}
      <button
        type="button"
        className="button"
        onClick={onDuplicate}
        disabled={isDirty}
        title={isDirty ? 'Save your changes first' : undefined}
      >
        <Copy aria-hidden="true" size={16} /> Duplicate for another patient
      </button>
      <button type="button" className="button button-danger-outline" onClick={onDelete}>
        <Trash2 aria-hidden="true" size={16} /> Delete
      </button>
    </div>
  );
}
