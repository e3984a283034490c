import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Connection } from '@shared/connection';
import { PartnerConnectionInput, type ConnectionView, type IpcError } from '@shared/ipc';
import { Field } from '@renderer/components/Field';
import { describeError } from '@renderer/lib/ipc';
import { useAppStore } from '@renderer/stores/app-store';
import type { useSwitchConnection } from './use-switch';
import { connectPartner, testConnection, updateConnection } from './use-connections';

type Kind = PartnerConnectionInput['kind'];

/** The URL rules a saved connection must meet, checked as you type. */
const urlRules = (value: { baseUrl: string; authUrl: string }, ctx: z.RefinementCtx) => {
  for (const field of ['baseUrl', 'authUrl'] as const) {
    if (!value[field]) continue;
    const parsed = Connection.shape[field].safeParse(value[field]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    }
  }
};

/** The contract's schema plus the URL rules. */
const FormSchema = PartnerConnectionInput.superRefine(urlRules);
/** Editing a saved connection: an empty secret keeps the one in the keychain. */
const EditSchema = PartnerConnectionInput.extend({
  clientSecret: PartnerConnectionInput.shape.clientSecret.or(z.literal('')),
}).superRefine(urlRules);
/** Editing a connection whose secret is missing: it must be entered. */
const MissingSecretSchema = FormSchema;

export type PartnerFormValues = PartnerConnectionInput;

const FIELDS = ['label', 'baseUrl', 'authUrl', 'clientId', 'clientSecret'] as const;
type FormField = (typeof FIELDS)[number];
const isFormField = (name: unknown): name is FormField =>
  typeof name === 'string' && (FIELDS as readonly string[]).includes(name);

interface Props {
  kind: Kind;
  switcher: ReturnType<typeof useSwitchConnection>;
  /** What was typed before (e.g. before switching between sandbox and production). */
  initial?: Partial<PartnerFormValues> | undefined;
  /** Told of every change, so the values outlive the form. */
  onValues?: (values: Partial<PartnerFormValues>) => void;
  /** A saved connection to edit (connections.update) instead of a new one. */
  editing?: ConnectionView;
  /** After a saved edit. */
  onDone?: () => void;
}

/** Label, URLs, client id and secret for a partner sandbox or production; test, then connect. */
export function PartnerConnectionForm({
  kind,
  switcher,
  initial,
  onValues,
  editing,
  onDone,
}: Props) {
  const secretStorage = useAppStore((s) => s.secretStorage);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<PartnerConnectionInput>({
    resolver: zodResolver(
      editing ? (editing.secretMissing ? MissingSecretSchema : EditSchema) : FormSchema,
    ),
    defaultValues: editing
      ? {
          kind,
          label: editing.label,
          baseUrl: editing.baseUrl,
          authUrl: editing.authUrl,
          clientId: editing.clientId,
          clientSecret: '',
        }
      : {
          kind,
          label: kind === 'production' ? 'Production' : 'Partner sandbox',
          baseUrl: '',
          authUrl: '',
          clientId: '',
          clientSecret: '',
          ...initial,
        },
  });
  useEffect(() => {
    if (!onValues) return;
    const subscription = watch((values) => onValues(values as Partial<PartnerFormValues>));
    return () => subscription.unsubscribe();
  }, [watch, onValues]);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ title: string; detail: string | null } | null>(null);

  const showError = (error: IpcError) => {
    let placed = false;
    for (const fe of error.fieldErrors) {
      const name = fe.path[0];
      if (isFormField(name)) {
        setError(name as FieldPath<PartnerConnectionInput>, {
          type: 'server',
          message: fe.message,
        });
        placed = true;
      }
    }
    const text = describeError(error);
    setFailure(
      placed && (error.kind === 'validation' || error.kind === 'invalid-arguments')
        ? { title: 'Some fields need attention: see the messages beside them.', detail: null }
        : text,
    );
  };

  const onTest = handleSubmit(async (values) => {
    setTesting(true);
    setTested(null);
    setFailure(null);
    const result = await testConnection(values);
    setTesting(false);
    if (result.ok) setTested(result.value.partnerName);
    else showError(result.error);
  });

  const onConnect = handleSubmit(async (values) => {
    setFailure(null);
    if (editing) {
      const { clientSecret, ...fields } = values;
      const saved = await switcher.run(
        () =>
          updateConnection({
            ...fields,
            id: editing.id,
            ...(clientSecret ? { clientSecret } : {}),
          }),
        showError,
        true,
      );
      if (saved) onDone?.();
      return;
    }
    await switcher.run(() => connectPartner(values), showError);
  });

  const busy = testing || isSubmitting;
  const example = kind === 'production' ? 'api.partner.example' : 'sandbox.partner.example';
  return (
    <form
      className="form"
      onSubmit={onConnect}
      // "Connection works" was said of the values tested; a change to any of them takes it back.
      onChange={() => setTested(null)}
      noValidate
      aria-label={
        editing
          ? `Edit ${editing.label}`
          : `Connect to ${kind === 'production' ? 'production' : 'a partner sandbox'}`
      }
    >
      {kind === 'production' && (
        <p className="notice notice-warn">
          Orders sent to production are real: they are fulfilled, shipped and billed.
        </p>
      )}
      <input type="hidden" {...register('kind')} />
      <Field
        label="Label"
        autoComplete="off"
        error={errors.label?.message}
        {...register('label')}
        hint="A name you will recognise in the header."
      />
      <div className="field-row">
        <Field
          label="Base URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder={`https://${example}/v1`}
          error={errors.baseUrl?.message}
          {...register('baseUrl')}
        />
        <Field
          label="Auth URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder={`https://auth.${example}`}
          error={errors.authUrl?.message}
          {...register('authUrl')}
        />
      </div>
      <div className="field-row">
        <Field
          label="Client ID"
          autoComplete="off"
          spellCheck={false}
          error={errors.clientId?.message}
          {...register('clientId')}
        />
        <Field
          label="Client secret"
          type="password"
          autoComplete="off"
          error={errors.clientSecret?.message}
          hint={secretHint(secretStorage, editing)}
          {...register('clientSecret')}
        />
      </div>
      {failure && (
        <div className="notice notice-error" role="alert">
          <p className="notice-title">{failure.title}</p>
          {failure.detail && <p>{failure.detail}</p>}
        </div>
      )}
      <div role="status" className="form-status">
        {tested && (
          <p className="notice notice-success">
            <CheckCircle2 aria-hidden="true" size={18} /> Connection works: partner {tested}.
          </p>
        )}
      </div>
      <div className="form-actions">
        {/* Saving an edit tests the details first; the secret may be left empty there. */}
        {!editing && (
          <button
            type="button"
            className="button"
            onClick={() => void onTest()}
            disabled={busy}
            aria-busy={testing}
          >
            {testing && <Loader2 aria-hidden="true" size={16} className="spin" />}
            Test connection
          </button>
        )}
        <button
          type="submit"
          className="button button-primary"
          disabled={busy}
          aria-busy={isSubmitting}
        >
          {isSubmitting && <Loader2 aria-hidden="true" size={16} className="spin" />}
          {editing ? 'Save and connect' : 'Connect'}
        </button>
        {editing && onDone && (
          <button type="button" className="button" onClick={onDone} disabled={isSubmitting}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** Where the secret goes, said truthfully (issue 12: --memory-keychain keeps it for one run). */
function secretHint(
  storage: 'system-keychain' | 'memory',
  editing: ConnectionView | undefined,
): string {
  const where =
    storage === 'memory'
      ? 'Kept in memory for this run only (--memory-keychain): enter it again after a restart.'
      : 'Kept in the system keychain, never shown again.';
  if (!editing) return where;
  if (editing.secretMissing) return `The saved secret is missing: enter it again. ${where}`;
  return `Leave empty to keep the saved secret. ${where}`;
}
