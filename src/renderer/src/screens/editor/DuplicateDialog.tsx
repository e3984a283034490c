import { zodResolver } from '@hookform/resolvers/zod';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { PatientIdChoice, PatientIdClashView } from '@shared/patient-identity-views';
import type { ProtocolView } from '@shared/protocol-views';
import { Dialog } from '@renderer/components/Dialog';
import { errorMessage } from '@renderer/lib/ipc';
import { CustomerFieldset, type CustomerField } from './CustomerFieldset';
import { formPath } from '@renderer/lib/server-issues';
import { CustomerForm, emptyCustomer } from './editor-form';
import { PatientIdDialog, type PatientIdAnswer } from './PatientIdDialog';
import { duplicateProtocol } from './protocol-commands';

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
    setValue,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<DuplicateInput, unknown, DuplicateOutput>({
    resolver: zodResolver(DuplicateForm),
    defaultValues: { customer: emptyCustomer() },
    mode: 'onTouched',
  });
  const [failure, setFailure] = useState<string | null>(null);
  /** The copy stopped on a Patient ID that names another person, waiting for the answer. */
  const [asking, setAsking] = useState<{
    clash: PatientIdClashView;
    customer: DuplicateOutput['customer'];
  } | null>(null);
  const [answering, setAnswering] = useState(false);

  const close = () => {
    reset({ customer: emptyCustomer() });
    setFailure(null);
    setAsking(null);
    onClose();
  };

  const duplicate = async (customer: DuplicateOutput['customer'], patientId?: PatientIdChoice) => {
    setFailure(null);
    const result = await duplicateProtocol(localId, customer, patientId);
    if (result.ok) {
      setAsking(null);
      reset({ customer: emptyCustomer() });
      onDuplicated(result.value);
      return;
    }
    const clash = result.error.patientIdClash;
    if (clash) {
      setAsking({ clash, customer });
      return;
    }
    setAsking(null);
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
  };

  const onSubmit = handleSubmit(({ customer }) => duplicate(customer));

  const answer = async (a: PatientIdAnswer) => {
    if (!asking) return;
    setAnswering(true);
    if (a.choice === 'new-id') {
      setValue('customer.sourceId', a.sourceId);
      await duplicate({ ...asking.customer, sourceId: a.sourceId });
    } else {
      await duplicate(asking.customer, a);
    }
    setAnswering(false);
  };

  return (
    <>
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
      {/* A dialog of its own over this one (not inside: each traps Tab in itself). */}
      <PatientIdDialog
        clash={asking?.clash ?? null}
        busy={answering}
        onAnswer={(a) => void answer(a)}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}
