import { Building2, FlaskConical, Laptop, Loader2 } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { useAppStore } from '@renderer/stores/app-store';
import { PartnerConnectionForm, type PartnerFormValues } from './PartnerConnectionForm';
import { SavedConnections } from './SavedConnections';
import { useSwitchConnection } from './use-switch';
import { startEmbeddedSandbox } from './use-connections';
import { PracticeSwitch } from './PracticeSwitch';

type Choice = 'embedded' | 'partner-sandbox' | 'production';

const CHOICES = [
  {
    value: 'embedded',
    title: 'Local sandbox (built in)',
    text: 'Try Order Desk with a sample catalog. Runs on this computer and works offline.',
    Icon: Laptop,
  },
  {
    value: 'partner-sandbox',
    title: 'Partner sandbox',
    text: "Your fulfillment partner's test server. Orders are not fulfilled.",
    Icon: FlaskConical,
  },
  {
    value: 'production',
    title: 'Production',
    text: 'The live service: real orders for your patients.',
    Icon: Building2,
  },
] as const;

/** Where Order Desk sends its work: the built-in sandbox, a partner sandbox or production. */
export default function ConnectScreen({ firstRun }: { firstRun: boolean }) {
  const usingEmbedded = useAppStore((s) => s.connection?.kind === 'embedded');
  const keysInMemory = useAppStore((s) => s.secretStorage === 'memory');
  // Already on the local sandbox: what the user came here for is another server.
  const [choice, setChoice] = useState<Choice>(usingEmbedded ? 'partner-sandbox' : 'embedded');
  const [starting, setStarting] = useState(false);
  const switcher = useSwitchConnection();
  // What was typed for each kind, kept across switches between sandbox and production.
  const drafts = useRef<Partial<Record<Choice, Partial<PartnerFormValues>>>>({});
  const keepDraft = useCallback((values: Partial<PartnerFormValues>) => {
    if (values.kind) drafts.current[values.kind] = values;
  }, []);

  const startEmbedded = async () => {
    setStarting(true);
    await switcher.run(() => startEmbeddedSandbox());
    setStarting(false);
  };

  return (
    <div className="screen screen-narrow">
      <h1>{firstRun ? 'Welcome to Order Desk' : 'Connection'}</h1>
      <p className="lead">
        {firstRun
          ? 'Choose where Order Desk sends orders. You can switch later from the Connection screen.'
          : 'Switch to another server, or add a new connection. Each connection keeps its own protocols, orders and history on this computer: switching deletes nothing.'}
      </p>

      {keysInMemory && (
        <p className="notice notice-warn" id="keys-in-memory">
          This run keeps its keys in memory (--memory-keychain): client secrets and the key this
          desk’s data is encrypted with are gone when it stops, so the next run cannot open what is
          saved now.
        </p>
      )}
      {!firstRun && usingEmbedded && <PracticeSwitch />}
      <section className="card" aria-labelledby="new-connection">
        <h2 id="new-connection">{firstRun ? 'Choose a server' : 'New connection'}</h2>
        <fieldset className="choices">
          <legend className="visually-hidden">Server</legend>
          {CHOICES.map(({ value, title, text, Icon }) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name="server"
                value={value}
                checked={choice === value}
                onChange={() => setChoice(value)}
                aria-describedby={`choice-${value}-text`}
              />
              <Icon aria-hidden="true" size={22} className="choice-icon" />
              <span className="choice-title">{title}</span>
              <span id={`choice-${value}-text`} className="choice-text">
                {text}
              </span>
            </label>
          ))}
        </fieldset>

        {choice === 'embedded' && usingEmbedded ? (
          <p className="notice notice-info" role="status">
            Order Desk is using the local sandbox now. To work with your partner, choose Partner
            sandbox or Production.
          </p>
        ) : choice === 'embedded' ? (
          <div className="form-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => void startEmbedded()}
              disabled={starting}
              aria-busy={starting}
            >
              {starting && <Loader2 aria-hidden="true" size={16} className="spin" />}
              Use the local sandbox
            </button>
          </div>
        ) : (
          <PartnerConnectionForm
            key={choice}
            kind={choice}
            switcher={switcher}
            initial={drafts.current[choice]}
            onValues={keepDraft}
          />
        )}
      </section>

      <SavedConnections switcher={switcher} hideWhenEmpty={firstRun} />
    </div>
  );
}
