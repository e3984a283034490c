import { useId, useState, type FormEvent } from 'react';
import type { PracticeProtocolChange } from '@shared/practice-views';
import { call, errorMessage } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';
import { shippingMethodLabel } from '@renderer/screens/orders/order-format';

/**
 * Changes a protocol on the server as another desk would: edited here too before the app hears
 * of it, it becomes a conflict to resolve.
 */
export function AnotherDesk() {
  const protocols = useLiveQuery(
    () => call('protocols.list', { sort: 'name', limit: 200 }),
    [],
    ['protocols'],
  );
  const choices = (protocols.data?.items ?? []).filter((p) => p.serverId !== null && !p.deleted);
  const [picked, setPicked] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState<(PracticeProtocolChange & { name: string }) | null>(null);
  const fieldId = useId();
  const chosen = choices.find((p) => p.serverId === picked) ?? choices[0] ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen?.serverId) return;
    setBusy(true);
    setError(null);
    const result = await call('practice.changeProtocol', { protocolId: chosen.serverId });
    setBusy(false);
    if (result.ok) setChanged({ ...result.value, name: chosen.customerName });
    else {
      setChanged(null);
      setError(errorMessage(result.error));
    }
  };

  return (
    <section className="card" aria-labelledby="practice-desk-heading">
      <h2 id="practice-desk-heading">Another desk</h2>
      <p className="field-hint">
        Changes a protocol&apos;s shipping method on the server, as a colleague at another desk
        would. To meet a conflict: take the server offline, change a protocol below, edit the same
        protocol in Order Desk, then bring the server back.
      </p>
      <form
        className="practice-form"
        aria-label="Change a protocol as another desk"
        onSubmit={(e) => void submit(e)}
      >
        <div className="field">
          <label className="field-label" htmlFor={fieldId}>
            Protocol
          </label>
          <select
            id={fieldId}
            className="input select"
            value={chosen?.serverId ?? ''}
            disabled={choices.length === 0}
            onChange={(event) => setPicked(event.target.value)}
          >
            {choices.length === 0 && <option value="">No protocol on the server yet</option>}
            {choices.map((p) => (
              <option key={p.localId} value={p.serverId!}>
                {`${p.customerName} (${p.sourceId})`}
              </option>
            ))}
          </select>
        </div>
        <div className="form-actions form-actions-start">
          <button type="submit" className="button" disabled={busy || !chosen} aria-busy={busy}>
            Change it on the server
          </button>
        </div>
      </form>
      <div role="status" className="practice-result">
        {changed && (
          <p>
            {`Another desk changed ${changed.name}'s protocol on the server: shipping is now ${shippingMethodLabel(changed.shippingMethod)}.`}
          </p>
        )}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
