import { useState } from 'react';
import {
  PRACTICE_PRODUCT_STATUSES,
  type PracticeProductChange,
  type PracticeProductStatus,
} from '@shared/practice-views';
import { productStatusLabel } from '@renderer/lib/format';
import { PracticeCard } from './PracticeCard';
import { PracticeSelect } from './PracticeSelect';
import { usePracticeCommand } from './use-practice-command';
import { setProductStatus, usePracticeProducts } from './use-practice-data';

const STATUSES = PRACTICE_PRODUCT_STATUSES.map((s) => ({ value: s, label: productStatusLabel(s) }));

/** The partner discontinues, backorders or restocks a product: the catalog and editor follow. */
export function ProductStatusControl() {
  const products = usePracticeProducts();
  const choices = products.data?.products ?? [];
  const [picked, setPicked] = useState<number | null>(null);
  const [status, setStatus] = useState<PracticeProductStatus>('DISCONTINUED');
  const command = usePracticeCommand<PracticeProductChange>();
  const chosen = choices.find((p) => p.id === picked) ?? choices[0] ?? null;

  const submit = () => {
    if (!chosen) return;
    void command.run(() => setProductStatus(chosen.id, status));
  };

  const changed = command.done;
  return (
    <PracticeCard
      id="practice-product"
      title="A product's status"
      hint="The partner discontinues or backorders a product, or has it again: the catalog, the protocol editor and the batch review show it as they would."
      formLabel="Change a product's status"
      submitLabel="Change the status"
      canSubmit={chosen !== null}
      command={command}
      result={
        changed && `${changed.name} is now ${productStatusLabel(changed.status)} at the partner.`
      }
      onSubmit={submit}
    >
      <div className="field-row">
        <PracticeSelect
          label="Product"
          value={chosen?.id ?? ''}
          empty="No product in the catalog yet"
          options={choices.map((p) => ({
            value: p.id,
            label: `${p.name} (${productStatusLabel(p.status)})`,
          }))}
          onChange={setPicked}
        />
        <PracticeSelect label="New status" value={status} options={STATUSES} onChange={setStatus} />
      </div>
    </PracticeCard>
  );
}
