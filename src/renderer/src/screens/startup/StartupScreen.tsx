import { useRef, useState } from 'react';
import type { StartupView } from '@shared/startup-views';
import { Dialog } from '@renderer/components/Dialog';
import { Loading } from '@renderer/components/States';
import { formatCount } from '@renderer/lib/format';
import { useAppliedTheme } from '@renderer/lib/theme';
import type { Startup } from './use-startup';
import '@renderer/styles/startup.css';

type Encrypting = Extract<StartupView, { phase: 'encrypting' }>;
type Locked = Extract<StartupView, { phase: 'locked' }>;

/** The window before the data is open: one of the startup's phases. */
export function StartupScreen({ view, error, busy, retry, startFresh }: Startup) {
  // The theme chosen in Settings is in the data not open yet: the system's until then.
  useAppliedTheme('system');
  let body;
  if (view?.phase === 'encrypting') body = <EncryptingView view={view} />;
  else if (view?.phase === 'locked')
    body = <LockedView view={view} busy={busy} retry={retry} startFresh={startFresh} />;
  else if (view?.phase === 'failed')
    body = (
      <>
        <h1>Order Desk could not open its data</h1>
        <p role="alert">{view.message}</p>
        <div className="startup-actions">
          <TryAgain busy={busy} retry={retry} />
        </div>
      </>
    );
  else if (error)
    // Main could not be asked at all (the browser host's tab of an earlier launch, say).
    body = (
      <>
        <h1>Order Desk could not start</h1>
        <p role="alert">{error}</p>
        <div className="startup-actions">
          <TryAgain busy={busy} retry={retry} />
        </div>
      </>
    );
  else
    return (
      <main className="main boot">
        <Loading label="Opening Order Desk’s data…" />
      </main>
    );
  return (
    <main className="main boot">
      <div className="screen screen-narrow startup">
        {body}
        {error && view && <p role="alert">{error}</p>}
      </div>
    </main>
  );
}

function TryAgain({ busy, retry }: { busy: boolean; retry(): Promise<void> }) {
  return (
    <button
      type="button"
      className="button button-primary"
      disabled={busy}
      onClick={() => void retry()}
    >
      Try again
    </button>
  );
}

function EncryptingView({ view }: { view: Encrypting }) {
  const percent = view.total > 0 ? Math.floor((100 * view.done) / view.total) : 0;
  return (
    <>
      <h1>Encrypting this desk’s data</h1>
      <p className="lead">
        Order Desk now keeps the patient data on this computer encrypted, with a key kept in the
        system keychain. It is encrypting what an earlier version saved: this happens once.
      </p>
      <div
        className="startup-bar"
        role="progressbar"
        aria-label="Encrypting"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, file ${view.fileNumber} of ${view.files}`}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <p role="status">
        {percent}% · file {formatCount(view.fileNumber)} of {formatCount(view.files)}
      </p>
      <p className="hint">
        If the computer stops meanwhile, nothing is lost: the next start finishes the work.
      </p>
    </>
  );
}

function LockedView({
  view,
  busy,
  retry,
  startFresh,
}: {
  view: Locked;
  busy: boolean;
  retry(): Promise<void>;
  startFresh(): Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  return (
    <>
      <h1>
        {view.reason === 'keychain'
          ? 'The keychain cannot be reached'
          : 'This desk’s data cannot be opened'}
      </h1>
      <p role="alert">{view.message}</p>
      {view.files.length > 0 && (
        <section aria-labelledby="startup-files">
          <h2 id="startup-files">
            {view.files.length === 1 ? 'The file' : `The ${formatCount(view.files.length)} files`}
          </h2>
          <ul className="startup-files">
            {view.files.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p className="hint">
        Data folder: <code>{view.dataDir}</code>
      </p>
      <div className="startup-actions">
        <TryAgain busy={busy} retry={retry} />
        {view.canStartFresh && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => setConfirming(true)}
          >
            Start fresh…
          </button>
        )}
      </div>
      <Dialog open={confirming} title="Start fresh?" alert onClose={() => setConfirming(false)}>
        <div className="dialog-body">
          <p>
            The {view.files.length === 1 ? 'file above is' : 'files above are'} moved aside, with
            “unreadable” and the time in {view.files.length === 1 ? 'its name' : 'their names'}:
            nothing is deleted, and {view.files.length === 1 ? 'it opens' : 'they open'} again if
            the old key is found. Order Desk then starts without{' '}
            {view.files.length === 1 ? 'it' : 'them'}; protocols and orders on the partner’s server
            come back with the next sync, changes that were never sent do not.
          </p>
        </div>
        <div className="dialog-actions">
          <button
            type="button"
            className="button"
            ref={keep}
            data-autofocus
            onClick={() => setConfirming(false)}
          >
            Keep waiting
          </button>
          <button
            type="button"
            className="button button-danger"
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              void startFresh();
            }}
          >
            Start fresh
          </button>
        </div>
      </Dialog>
    </>
  );
}
