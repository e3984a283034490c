import { Loader2 } from 'lucide-react';
import { useId, useState } from 'react';
import { SOURCE_ID_MAX } from '@shared/api';
import type { PatientIdChoice, PatientIdClashView } from '@shared/patient-identity-views';
import { Dialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { plural } from '@renderer/lib/format';
import { detailsText } from '@renderer/lib/customer-details';
import '@renderer/styles/patients.css';

/** What the user answered: the same person (as main takes it), or a new Patient ID. */
export type PatientIdAnswer = PatientIdChoice | { choice: 'new-id'; sourceId: string };

interface Props {
  clash: PatientIdClashView | null;
  busy: boolean;
  /** A failure of the save that followed the answer. */
  failure?: string | null;
  onAnswer(answer: PatientIdAnswer): void;
  onCancel(): void;
}

type Picked = `stored:${string}` | 'update-everywhere' | 'new-id';

/**
 * The question main asks when a save gives a Patient ID a second name: the same person (the
 * stored details, or the new ones on every protocol of the ID) or a new ID, with a free one
 * suggested. Nothing is saved until the user answers.
 */
export function PatientIdDialog({ clash, busy, failure = null, onAnswer, onCancel }: Props) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const [newId, setNewId] = useState('');
  const [shownFor, setShownFor] = useState<PatientIdClashView | null>(null);
  const base = useId();
  if (clash !== shownFor) {
    // A new question: the suggestion afresh, nothing picked.
    setShownFor(clash);
    setPicked(null);
    setNewId(clash?.suggestedId ?? '');
  }
  const others = clash ? clash.others.map((o) => o.name).join(' and ') : '';
  const idError =
    picked === 'new-id' && newId.trim() === ''
      ? 'required'
      : picked === 'new-id' && newId.trim() === clash?.sourceId
        ? `the new ID must differ from ${clash.sourceId}`
        : undefined;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!picked || idError) return;
    if (picked === 'new-id') onAnswer({ choice: 'new-id', sourceId: newId.trim() });
    else if (picked === 'update-everywhere') onAnswer({ choice: 'update-everywhere' });
    else onAnswer({ choice: 'use-stored', person: picked.slice('stored:'.length) });
  };

  const title = clash ? `Patient ID ${clash.sourceId} already belongs to ${others}` : '';
  return (
    <Dialog open={clash !== null} title={title} onClose={onCancel}>
      {clash && (
        <ClashForm
          clash={clash}
          base={base}
          picked={picked}
          setPicked={setPicked}
          newId={newId}
          setNewId={setNewId}
          idError={idError}
          busy={busy}
          failure={failure}
          submit={submit}
          onCancel={onCancel}
        />
      )}
    </Dialog>
  );
}

interface FormProps {
  clash: PatientIdClashView;
  base: string;
  picked: Picked | null;
  setPicked(p: Picked): void;
  newId: string;
  setNewId(id: string): void;
  idError: string | undefined;
  busy: boolean;
  failure: string | null;
  submit(event: React.FormEvent): void;
  onCancel(): void;
}

function ClashForm(props: FormProps) {
  const { clash, base, picked, setPicked, newId, setNewId, idError, busy, failure } = props;
  const protocols = clash.others.reduce((n, o) => n + o.protocols, 0);
  const option = (value: Picked, title: string, text: string) => (
    <label className="choice patient-id-choice" key={value}>
      <input
        type="radio"
        name={`${base}-answer`}
        value={value}
        checked={picked === value}
        onChange={() => setPicked(value)}
        aria-describedby={`${base}-${value}`}
      />
      <span className="choice-title">{title}</span>
      <span id={`${base}-${value}`} className="choice-text">
        {text}
      </span>
    </label>
  );

  return (
    <form className="dialog-body patient-id-dialog" onSubmit={props.submit} noValidate>
      <p>
        One Patient ID is one person. You are saving <strong>{clash.name}</strong> with{' '}
        <span className="code">{clash.sourceId}</span>. Nothing is saved until you choose.
      </p>
      <fieldset className="patient-id-choices">
        <legend>Is {clash.name} the same person?</legend>
        {clash.others
          .filter((o) => o.customer !== null)
          .map((o) =>
            option(
              `stored:${o.key}`,
              `Yes, ${o.name}: use the stored details`,
              `Save with ${o.name}’s details: ${detailsText(o.customer)}.`,
            ),
          )}
        {option(
          'update-everywhere',
          'Yes: update the details everywhere',
          protocols > 0
            ? `Save ${clash.name}’s details as entered, and write them on the ${plural(protocols, 'other protocol')} of ${clash.sourceId} (each change is recorded and synced).`
            : `Save ${clash.name}’s details as entered (only orders carry ${clash.sourceId} here; orders keep the name they were sent with).`,
        )}
        {option(
          'new-id',
          `No, another person: give ${clash.name} a new ID`,
          `${clash.suggestedId} is free: the next number of the clinic’s IDs.`,
        )}
      </fieldset>
      {picked === 'new-id' && (
        <Field
          id="patient-id-dialog-new-id"
          label="New Patient ID"
          value={newId}
          maxLength={SOURCE_ID_MAX}
          autoComplete="off"
          onChange={(e) => setNewId(e.target.value)}
          error={idError}
        />
      )}
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onCancel} data-autofocus>
          Cancel
        </button>
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || picked === null || idError !== undefined}
          aria-busy={busy}
        >
          {busy && <Loader2 aria-hidden="true" size={16} className="spin" />}
          Save
        </button>
      </div>
    </form>
  );
}
