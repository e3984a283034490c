import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { SOURCE_ID_MAX } from '@shared/api';
import type { SharedIdView, UntangleArgs } from '@shared/patient-identity-views';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { Field } from '@renderer/components/Field';
import { Empty, Failed, Loading } from '@renderer/components/States';
import { plural } from '@renderer/lib/format';
import { errorMessage } from '@renderer/lib/ipc';
import { toast } from '@renderer/stores/toast-store';
import { undoAction } from '@renderer/stores/undo-store';
import '@renderer/styles/patients.css';
import { detailsText } from '@renderer/lib/customer-details';
import { patientHref } from '@renderer/lib/patient-href';
import { untangle, useSharedIds } from './use-patients';

type Person = SharedIdView['people'][number];

/** What the user is about to do, asked once more before anything is rewritten. */
type Pending =
  | { args: Extract<UntangleArgs, { choice: 'same-person' }>; entry: SharedIdView; keep: Person }
  | { args: Extract<UntangleArgs, { choice: 'new-id' }>; entry: SharedIdView; person: Person };

/** One name under a shared ID: its details, its protocols, and the two ways to untangle it. */
function PersonCard({
  entry,
  person,
  onAsk,
}: {
  entry: SharedIdView;
  person: Person;
  onAsk(p: Pending): void;
}) {
  const [newId, setNewId] = useState(entry.suggestedId);
  const idError =
    newId.trim() === ''
      ? 'required'
      : newId.trim() === entry.sourceId
        ? `the new ID must differ from ${entry.sourceId}`
        : undefined;
  const fieldId = `new-id-${entry.sourceId}-${person.key}`.replace(/[^A-Za-z0-9_-]/g, '_');
  return (
    <li className="shared-id-person" aria-label={person.name}>
      <h3>
        <Link href={patientHref(entry.sourceId, person.key)}>{person.name || 'Unnamed'}</Link>
      </h3>
      <p className="muted">{detailsText(person.customer)}</p>
      <ul aria-label={`${person.name}’s protocols`}>
        {person.protocolList.map((p) => (
          <li key={p.localId}>
            <Link href={`/protocols/${p.localId}`}>
              {p.products.length > 0 ? p.products.join(', ') : 'Protocol'}
            </Link>
            {p.daysSupply !== null && ` · ${p.daysSupply} days`}
            {p.fromServer && <span className="muted"> · from the server (another desk)</span>}
          </li>
        ))}
      </ul>
      <div className="shared-id-actions">
        <button
          type="button"
          className="button"
          disabled={!person.customer}
          onClick={() =>
            onAsk({
              args: { choice: 'same-person', sourceId: entry.sourceId, keep: person.key },
              entry,
              keep: person,
            })
          }
        >
          Same person: keep these details
        </button>
      </div>
      <form
        className="shared-id-actions"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (idError) return;
          onAsk({
            args: {
              choice: 'new-id',
              sourceId: entry.sourceId,
              person: person.key,
              newSourceId: newId.trim(),
            },
            entry,
            person,
          });
        }}
      >
        <Field
          id={fieldId}
          label={`New Patient ID for ${person.name}`}
          value={newId}
          maxLength={SOURCE_ID_MAX}
          autoComplete="off"
          error={idError}
          onChange={(e) => setNewId(e.target.value)}
        />
        <button type="submit" className="button" disabled={idError !== undefined}>
          Give this new ID
        </button>
      </form>
    </li>
  );
}

/** What the confirmation says will change. */
function pendingText(p: Pending): string {
  if (p.args.choice === 'same-person' && 'keep' in p) {
    const total = p.entry.people.reduce((n, x) => n + x.protocols, 0);
    return `All ${plural(total, 'protocol')} of ${p.entry.sourceId} will carry ${p.keep.name}’s name and details (${detailsText(p.keep.customer)}). Each change is recorded and sent to the server.`;
  }
  if (p.args.choice === 'new-id' && 'person' in p)
    return `${p.person.name}’s ${plural(p.person.protocols, 'protocol')} will move from ${p.entry.sourceId} to ${p.args.newSourceId}. Each change is recorded and sent to the server.`;
  return '';
}

/**
 * #/patient-ids: the Patient IDs this connection's protocols give more than one name (old data,
 * or another desk's), each name with its details and protocols, to say who is who: the same
 * person (whose details are right, written everywhere) or another person (a new ID).
 */
export default function SharedIdsScreen() {
  const shared = useSharedIds();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  const apply = async () => {
    if (!pending) return;
    setBusy(true);
    const result = await untangle(pending.args);
    setBusy(false);
    setPending(null);
    if (!result.ok) {
      toast.error('Nothing was changed.', errorMessage(result.error));
      return;
    }
    toast.success(
      `${plural(result.value.changed, 'protocol')} changed.`,
      null,
      result.value.changed > 0 ? { action: undoAction({ kind: 'untangle' }) } : {},
    );
    shared.refresh();
  };

  const view = shared.data;
  return (
    <div className="screen patients-screen">
      <p className="patient-back">
        <Link href="/patients">
          <ArrowLeft aria-hidden="true" size={14} /> All patients
        </Link>
      </p>
      <div className="screen-head">
        <h1>Patient IDs used for more than one name</h1>
      </div>
      <p className="muted">
        One Patient ID is one person. For each name, say whether it is the same person as the others
        (and whose details are right) or another person who needs a new ID. Nothing changes until
        you confirm.
      </p>
      {!view ? (
        shared.status === 'failed' ? (
          <Failed
            what="The shared Patient IDs could not be listed."
            error={shared.error}
            onRetry={shared.refresh}
          />
        ) : (
          <Loading label="Looking for shared Patient IDs…" />
        )
      ) : view.ids.length === 0 ? (
        <Empty title="Every Patient ID here names one person.">
          <Link href="/patients" className="button">
            All patients
          </Link>
        </Empty>
      ) : (
        <>
          {view.total > view.ids.length && (
            <p className="notice notice-info">
              The first {view.ids.length} of {view.total} are listed; the next show as these are
              untangled.
            </p>
          )}
          {view.ids.map((entry) => (
            <section
              key={entry.sourceId}
              className="card shared-id-card"
              aria-labelledby={`shared-${entry.sourceId}`}
            >
              <h2 id={`shared-${entry.sourceId}`}>
                Patient ID <span className="code">{entry.sourceId}</span>:{' '}
                {plural(entry.people.length, 'name')}
              </h2>
              <ul className="shared-id-people">
                {entry.people.map((person) => (
                  <PersonCard key={person.key} entry={entry} person={person} onAsk={setPending} />
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={
          pending?.args.choice === 'new-id'
            ? `Give ${pending.args.newSourceId} to ${'person' in pending ? pending.person.name : ''}?`
            : `Make every protocol of ${pending?.entry.sourceId ?? ''} one person?`
        }
        confirmLabel="Change the protocols"
        danger={false}
        busy={busy}
        onConfirm={() => void apply()}
        onCancel={() => setPending(null)}
      >
        <p>{pending ? pendingText(pending) : ''}</p>
      </ConfirmDialog>
    </div>
  );
}
