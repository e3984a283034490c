import { useId, useState, type FormEvent } from 'react';
import {
  PRACTICE_PRODUCT_STATUSES,
  type PracticeProductChange,
  type PracticeProductStatus,
} from '@shared/practice-views';
import { productStatusLabel } from '@renderer/lib/format';
import { call, errorMessage } from '@renderer/lib/ipc';
import { useLiveQuery } from '@renderer/lib/use-query';

/** The partner discontinues, backorders or restocks a product: the catalog and editor follow. */
export function ProductStatusControl() {
  const products = useLiveQuery(
    () => call('catalog.products', { sort: 'name', limit: 500 }),
    [],
    ['catalog'],
  );
  const choices = products.data?.products ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const [status, setStatus] = useState<PracticeProductStatus>('DISCONTINUED');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [changed, setChanged] = useState<PracticeProductChange | null>(null);
  const productFieldId = useId();
  const statusFieldId = useId();
  const chosen = choices.find((p) => p.id === picked) ?? choices[0] ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    const result = await call('practice.setProductStatus', { productId: chosen.id, status });
    setBusy(false);
    if (result.ok) setChanged(result.value);
    else {
      setChanged(null);
      setError(errorMessage(result.error));
    }
  };

  return (
    <section className="card" aria-labelledby="practice-product-heading">
      <h2 id="practice-product-heading">A product&apos;s status</h2>
      <p className="field-hint">
        The partner discontinues or backorders a product, or has it again: the catalog, the protocol
        editor and the batch review show it as they would.
      </p>
      <form
        className="practice-form"
        aria-label="Change a product's status"
        onSubmit={(e) => void submit(e)}
      >
        <div className="field-row">
          <div className="field">
            <label className="field-label" htmlFor={productFieldId}>
              Product
            </label>
            <select
              id={productFieldId}
              className="input select"
              value={chosen?.id ?? ''}
              disabled={choices.length === 0}
              onChange={(event) => setPicked(Number(event.target.value))}
            >
              {choices.length === 0 && <option value="">No product in the catalog yet</option>}
              {choices.map((p) => (
                <option key={p.id} value={p.id}>
                  {`${p.name} (${productStatusLabel(p.status)})`}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field-label" htmlFor={statusFieldId}>
              New status
            </label>
            <select
              id={statusFieldId}
              className="input select"
              value={status}
              onChange={(event) => setStatus(event.target.value as PracticeProductStatus)}
            >
              {PRACTICE_PRODUCT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {productStatusLabel(s)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="form-actions form-actions-start">
          <button type="submit" className="button" disabled={busy || !chosen} aria-busy={busy}>
            Change the status
          </button>
        </div>
      </form>
      <div role="status" className="practice-result">
        {changed && (
          <p>{`${changed.name} is now ${productStatusLabel(changed.status)} at the partner.`}</p>
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
