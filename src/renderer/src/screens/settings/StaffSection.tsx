import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { STAFF_MAX, StaffName, type StaffView } from '@shared/activity-views';
import type { IpcResult } from '@shared/ipc';
import { Field } from '@renderer/components/Field';
import { describeError } from '@renderer/lib/ipc';
import { useAppStore } from '@renderer/stores/app-store';
import { useStaffStore } from '@renderer/stores/staff-store';
import '@renderer/styles/activity.css';

const NameForm = z.object({ name: StaffName });
type NameFormInput = z.input<typeof NameForm>;
type NameFormOutput = z.output<typeof NameForm>;

/**
 * One name's form (a new one, or a rename): the name checked as main checks it, and main's
 * refusal (a name already listed) shown on the field.
 */
function NameField({
  formLabel,
  label,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  /** The form's name ("Add a person"); `label` is its field's. */
  formLabel: string;
  label: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<IpcResult<StaffView>>;
  onCancel?: () => void;
}) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NameFormInput, unknown, NameFormOutput>({
    resolver: zodResolver(NameForm),
    defaultValues: { name: initial },
  });
  const submit = handleSubmit(async ({ name }) => {
    const result = await onSubmit(name);
    if (result.ok) return reset({ name: '' });
    const { title, detail } = describeError(result.error);
    setError('name', { type: 'server', message: detail ?? title });
  });
  return (
    <form className="staff-form" onSubmit={submit} noValidate aria-label={formLabel}>
      <Field
        label={label}
        autoComplete="off"
        maxLength={60}
        error={errors.name?.message}
        {...register('name')}
      />
      <div className="staff-form-actions">
        <button type="submit" className="button button-primary" disabled={isSubmitting}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/**
 * The people who share this desk: added, renamed, removed here; whoever works picks their name
 * in the header ("At the desk"), and the activity record names them. No passwords: the
 * computer's login is the boundary, and the record names the OS account too.
 */
export function StaffSection() {
  const staff = useAppStore((s) => s.staff);
  const desk = useAppStore((s) => s.desk);
  const { add, rename, remove } = useStaffStore();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const removeName = async (name: string) => {
    setProblem(null);
    const result = await remove(name);
    if (!result.ok)
      setProblem(`${name} could not be removed. ${describeError(result.error).title}`);
  };
  return (
    <section className="card" aria-labelledby="staff-heading">
      <h2 id="staff-heading">People at this desk</h2>
      <p className="field-hint">
        Where several people share this computer, list them here: whoever is working picks their
        name in the header (At the desk), and the activity record names them with each thing they
        do. There are no passwords: the computer&apos;s own sign-in is the boundary
        {desk.name ? `, and the record also names this desk (${desk.name})` : ''}
        {desk.osUser ? ` and its account (${desk.osUser})` : ''}.
      </p>
      {staff.length > 0 ? (
        <ul className="staff-list" aria-label="People at this desk">
          {staff.map((name) => (
            <li key={name} className="staff-row">
              {renaming === name ? (
                <NameField
                  formLabel={`Rename ${name}`}
                  label={`New name for ${name}`}
                  initial={name}
                  submitLabel="Save name"
                  onSubmit={async (to) => {
                    const result = await rename(name, to);
                    if (result.ok) setRenaming(null);
                    return result;
                  }}
                  onCancel={() => setRenaming(null)}
                />
              ) : (
                <>
                  <span className="staff-name">{name}</span>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Rename ${name}`}
                    onClick={() => setRenaming(name)}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={`Remove ${name}`}
                    onClick={() => void removeName(name)}
                  >
                    Remove
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">Nobody is listed: the header does not ask who is at the desk.</p>
      )}
      {problem && (
        <p className="notice notice-error" role="alert">
          {problem}
        </p>
      )}
      {staff.length < STAFF_MAX && (
        <NameField
          formLabel="Add a person"
          label="Name to add"
          initial=""
          submitLabel="Add person"
          onSubmit={add}
        />
      )}
    </section>
  );
}
