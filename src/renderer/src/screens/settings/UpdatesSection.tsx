import { zodResolver } from '@hookform/resolvers/zod';
import { RefreshCw, RotateCcw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { UpdatesView } from '@shared/update-views';
import { Field } from '@renderer/components/Field';
import { Failed, Loading } from '@renderer/components/States';
import { formatMoment } from '@renderer/lib/dates';
import { describeError, errorMessage } from '@renderer/lib/ipc';
import { useAppStore } from '@renderer/stores/app-store';
import { useUpdatesStore } from '@renderer/stores/updates-store';
import '@renderer/styles/notifications.css';
import '@renderer/styles/updates.css';
import {
  UpdatesForm,
  everyInterval,
  updatesFormValues,
  type UpdatesFormInput,
  type UpdatesFormOutput,
} from './updates-form';
import { FormFooter, type FormFeedback } from '@renderer/components/FormFooter';

/** The switch and the feed URL; Save sends both (main validates them again). */
function UpdatesSettingsForm({ view }: { view: UpdatesView }) {
  const configure = useUpdatesStore((s) => s.configure);
  const switchHint = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<UpdatesFormInput, unknown, UpdatesFormOutput>({
    resolver: zodResolver(UpdatesForm),
    defaultValues: updatesFormValues(view.settings),
    mode: 'onBlur',
  });
  const [feedback, setFeedback] = useState<FormFeedback | null>(null);
  const { enabled, feedUrl } = view.settings;

  useEffect(() => {
    // Dirty fields are only relative to the settings as last saved (status events keep them).
    reset(updatesFormValues({ enabled, feedUrl }));
  }, [enabled, feedUrl, reset]);

  const onSave = handleSubmit(async (values) => {
    setFeedback(null);
    const result = await configure(values);
    if (result.ok) {
      setFeedback({
        kind: 'success',
        text: values.enabled ? 'Update settings saved. Updates are on.' : 'Update settings saved.',
      });
      return;
    }
    let placed = false;
    for (const fe of result.error.fieldErrors) {
      if (fe.path[0] === 'feedUrl' || fe.path[0] === 'enabled') {
        setError(fe.path[0], { type: 'server', message: fe.message });
        placed = true;
      }
    }
    const { title, detail } = describeError(result.error);
    setFeedback({
      kind: 'error',
      text: placed ? 'Update settings not saved: check the feed URL.' : `Not saved. ${title}`,
      detail: placed ? null : detail,
    });
  });

  return (
    <form className="form" onSubmit={onSave} noValidate aria-label="Update settings">
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          aria-describedby={switchHint}
          {...register('enabled')}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label">Check for updates and download them</span>
      </label>
      <p id={switchHint} className="field-hint">
        Off by default. While on, Order Desk checks when it starts and{' '}
        {everyInterval(view.intervalMinutes)}, downloads a new version in the background, and
        installs it when you restart or quit, never while a batch is sending orders.
      </p>
      <Field
        label="Update feed URL"
        type="url"
        placeholder="https://updates.example.com/order-desk/"
        autoComplete="off"
        spellCheck={false}
        hint="Where new versions of Order Desk are published (https; plain http only for 127.0.0.1 when testing)."
        error={errors.feedUrl?.message}
        {...register('feedUrl')}
      />
      <FormFooter
        feedback={feedback}
        dirty={isDirty}
        submitting={isSubmitting}
        onDiscard={() => {
          reset(updatesFormValues(view.settings));
          setFeedback(null);
        }}
        saveLabel="Save"
      />
    </form>
  );
}

/** What the updater is doing, in a sentence. */
function statusText(view: UpdatesView, appVersion: string): string {
  const current = appVersion ? `Order Desk ${appVersion}` : 'Order Desk';
  switch (view.phase) {
    case 'off':
      return `Updates are off. ${current} does not look for new versions.`;
    case 'idle':
      return 'Updates are on. The first check runs shortly.';
    case 'checking':
      return 'Checking for updates…';
    case 'up-to-date':
      return `${current} is up to date${view.checkedAt ? ` (checked ${formatMoment(view.checkedAt)})` : ''}.`;
    case 'available':
    case 'downloading':
      return `Downloading version ${view.version ?? ''}: ${view.percent ?? 0}%`;
    case 'ready':
      return `Version ${view.version ?? ''} is downloaded. It is installed when you restart Order Desk, or when it quits.`;
    case 'error':
      return view.message ?? 'The last update check failed.';
  }
}

/** Status, Check now and Restart to update (the installed desktop app only). */
function UpdateStatus({ view }: { view: UpdatesView }) {
  const appVersion = useAppStore((s) => s.version);
  const check = useUpdatesStore((s) => s.check);
  const install = useUpdatesStore((s) => s.install);
  const [busy, setBusy] = useState<'check' | 'install' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const checkReason = useId();
  const installReason = useId();
  const on = view.settings.enabled;
  const working = view.phase === 'checking' || view.phase === 'downloading';
  const checkBlocked = !on
    ? 'Turn updates on and save to check.'
    : view.phase === 'ready'
      ? 'An update is ready: restart to install it first.'
      : null;

  const run = async (what: 'check' | 'install') => {
    setBusy(what);
    setFailure(null);
    const result = what === 'check' ? await check() : await install();
    setBusy(null);
    if (!result.ok) setFailure(errorMessage(result.error));
  };

  return (
    <div className="update-status">
      <p
        className={view.phase === 'error' ? 'notice notice-error' : 'update-status-text'}
        role="status"
      >
        {statusText(view, appVersion)}
      </p>
      {view.phase === 'downloading' && (
        <progress
          className="update-progress"
          max={100}
          value={view.percent ?? 0}
          aria-label={`Downloading version ${view.version ?? ''}`}
        />
      )}
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions form-actions-start">
        <button
          type="button"
          className="button"
          disabled={checkBlocked !== null || working || busy !== null}
          aria-describedby={checkBlocked ? checkReason : undefined}
          aria-busy={busy === 'check' || view.phase === 'checking'}
          onClick={() => void run('check')}
        >
          <RefreshCw
            aria-hidden="true"
            size={16}
            className={view.phase === 'checking' ? 'spin' : undefined}
          />
          Check now
        </button>
        {view.phase === 'ready' && (
          <button
            type="button"
            className="button button-primary"
            disabled={view.batchRunning || busy !== null}
            aria-describedby={view.batchRunning ? installReason : undefined}
            onClick={() => void run('install')}
          >
            <RotateCcw aria-hidden="true" size={16} />
            Restart to update
          </button>
        )}
      </div>
      {checkBlocked && (
        <p id={checkReason} className="field-hint">
          {checkBlocked}
        </p>
      )}
      {view.phase === 'ready' && view.batchRunning && (
        <p id={installReason} className="field-hint">
          A batch is sending orders: restart when it has finished or is paused.
        </p>
      )}
    </div>
  );
}

/** Settings > Updates: off by default; the feed URL; the updater's status where there is one. */
export function UpdatesSection() {
  const state = useUpdatesStore((s) => s.state);
  const view = useUpdatesStore((s) => s.view);
  const error = useUpdatesStore((s) => s.error);
  const load = useUpdatesStore((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);

  let body;
  if (state === 'failed' && error)
    body = (
      <Failed
        what="The update settings could not be loaded."
        error={error}
        onRetry={() => void load()}
      />
    );
  else if (!view) body = <Loading label="Loading the update settings…" />;
  else
    body = (
      <>
        <UpdatesSettingsForm view={view} />
        {view.supported ? (
          <UpdateStatus view={view} />
        ) : (
          <p className="notice notice-info">
            Updates apply to the installed desktop app. This window is the browser host, so nothing
            is checked or installed here; the settings are kept for the app.
          </p>
        )}
      </>
    );
  return (
    <section className="card" aria-labelledby="updates-heading">
      <h2 id="updates-heading">Updates</h2>
      {body}
    </section>
  );
}
