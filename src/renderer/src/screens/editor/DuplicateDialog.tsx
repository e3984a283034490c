import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { ProtocolView } from '@shared/protocol-views';
import { Dialog } from '@renderer/components/Dialog';
import { call, errorMessage } from '@renderer/lib/ipc';
import { CustomerFieldset, type CustomerField } from './CustomerFieldset';
import { CustomerForm, emptyCustomer, formPath } from './editor-form';

const DuplicateForm = z.object({ customer: CustomerForm });
type DuplicateInput = z.input<typeof DuplicateForm>;
type DuplicateOutput = z.output<typeof DuplicateForm>;

interface Props {
  open: boolean;
  localId: string;
  onClose(): void;
  onDuplicated(copy: ProtocolView): void;
}

/** The same order for another patient: asks for the new patient's details, then makes the copy. */
export function DuplicateDialog({ open, localId, onClose, onDuplicated }: Props) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<DuplicateInput, unknown, DuplicateOutput>({
    resolver: zodResolver(DuplicateForm),
    defaultValues: { customer: emptyCustomer() },
    mode: 'onTouched',
  });
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    reset({ customer: emptyCustomer() });
    setFailure(null);
    onClose();
  };

  const onSubmit = handleSubmit(async ({ customer }) => {
    setFailure(null);
    const result = await call('protocols.duplicate', { localId, customer });
    if (result.ok) {
      reset({ customer: emptyCustomer() });
      onDuplicated(result.value);
      return;
    }
    let placed = false;
    for (const fe of result.error.fieldErrors) {
      const path = formPath(fe.path);
      if (path?.startsWith('customer.')) {
        setError(path as `customer.${CustomerField}`, { type: 'server', message: fe.message });
        placed = true;
      }
    }
    setFailure(
      placed ? 'The copy was not made: some fields need attention.' : errorMessage(result.error),
    );
  });

  return (
    <Dialog open={open} title="Duplicate for another patient" onClose={close}>
      <form className="form dialog-body duplicate-form" onSubmit={onSubmit} noValidate>
        <p className="muted">
          The copy keeps the products, doses, days supply, shipping and order type. Enter the new
          patient&apos;s details.
        </p>
        <CustomerFieldset
          bind={(name) => register(`customer.${name}`)}
          errors={errors.customer}
          idPrefix="duplicate"
        />
        {failure && (
          <p className="notice notice-error" role="alert">
            {failure}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={isSubmitting}
            aria-busy={isSubmitting}
          >
            {isSubmitting && <Loader2 aria-hidden="true" size={16} className="spin" />}
            Make the copy
          </button>
        </div>
      </form>
    </Dialog>
  );
}
