import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm, type FieldPath } from 'react-hook-form';
import { Connection } from '../../../../shared/connection';
import { PartnerConnectionInput, type IpcError } from '../../../../shared/ipc';
import { Field } from '../../components/Field';
import { call, describeError } from '../../lib/ipc';
import type { useSwitchConnection } from './use-switch';

type Kind = PartnerConnectionInput['kind'];

/** The contract's schema, plus the URL rules a saved connection must meet, checked as you type. */
const FormSchema = PartnerConnectionInput.superRefine((value, ctx) => {
  for (const field of ['baseUrl', 'authUrl'] as const) {
    if (!value[field]) continue;
    const parsed = Connection.shape[field].safeParse(value[field]);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    }
  }
});

const FIELDS = ['label', 'baseUrl', 'authUrl', 'clientId', 'clientSecret'] as const;
type FormField = (typeof FIELDS)[number];
const isFormField = (name: unknown): name is FormField =>
  typeof name === 'string' && (FIELDS as readonly string[]).includes(name);

interface Props {
  kind: Kind;
  switcher: ReturnType<typeof useSwitchConnection>;
}

/** Label, URLs, client id and secret for a partner sandbox or production; test, then connect. */
export function PartnerConnectionForm({ kind, switcher }: Props) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PartnerConnectionInput>({
    resolver: zodResolver(FormSchema),
    defaultValues: {
      kind,
      label: kind === 'production' ? 'Production' : 'Partner sandbox',
      baseUrl: '',
      authUrl: '',
      clientId: '',
      clientSecret: '',
    },
  });
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
    const result = await call('connections.test', values);
    setTesting(false);
    if (result.ok) setTested(result.value.partnerName);
    else showError(result.error);
  });

  const onConnect = handleSubmit(async (values) => {
    setFailure(null);
    await switcher.run(
      (discardPendingWork) => call('connections.connect', { ...values, discardPendingWork }),
      showError,
    );
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
      aria-label={`Connect to ${kind === 'production' ? 'production' : 'a partner sandbox'}`}
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
          hint="Kept in the system keychain, never shown again."
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
        <button
          type="submit"
          className="button button-primary"
          disabled={busy}
          aria-busy={isSubmitting}
        >
          {isSubmitting && <Loader2 aria-hidden="true" size={16} className="spin" />}
          Connect
        </button>
      </div>
    </form>
  );
}
