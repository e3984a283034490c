import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '@shared/ipc';
import { PatientIdClashView } from '@shared/patient-identity-views';
import type { ProtocolView } from '@shared/protocol-views';
import { DuplicateDialog } from '@renderer/screens/editor/DuplicateDialog';
import { installOrderDesk, refuse, Refusal } from '@test/support/component/fake-order-desk';
import { order, savedProtocol } from '@test/support/component/fixtures';

const SOURCE = '7d0f5a0e-3c4b-4e0b-9a55-2f1f3f6b8c11';
const COPY = '2c9d7a61-4b8e-4f3a-9d15-6e7f8a9b0c1d';
const GRACE = {
  sourceId: 'PAT-1001',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: null,
  phone: null,
  address: { line1: '1 Navy Way', line2: null, city: 'Portland', state: 'OR', zipCode: '97201' },
};
const copyOf = (customer: typeof GRACE) =>
  savedProtocol(
    { customer, daysSupply: 30, shippingMethod: 'STANDARD', orderType: 'ONE_TIME', lineItems: [] },
    COPY,
  );

function renderDialog() {
  const onDuplicated = vi.fn<(copy: ProtocolView) => void>();
  const onClose = vi.fn();
  render(<DuplicateDialog open localId={SOURCE} onClose={onClose} onDuplicated={onDuplicated} />);
  return {
    onDuplicated,
    onClose,
    dialog: screen.getByRole('dialog', { name: 'Duplicate for another patient' }),
  };
}

async function fillGrace(user: UserEvent, dialog: HTMLElement) {
  const field = (label: string) => within(dialog).getByLabelText(label);
  await user.type(field('First name'), 'Grace');
  await user.type(field('Last name'), 'Hopper');
  await user.type(field('Patient ID'), 'PAT-1001');
  await user.type(field('Address line 1'), '1 Navy Way');
  await user.type(field('City'), 'Portland');
  await user.selectOptions(field('State'), 'OR');
  await user.type(field('ZIP code'), '97201');
}

describe('DuplicateDialog: the same order for another patient', () => {
  it('sends the new patient to protocols.duplicate and hands the copy back', async () => {
    const desk = installOrderDesk({
      'protocols.duplicate': ({ customer }) => copyOf(customer as typeof GRACE),
    });
    const user = userEvent.setup();
    const { dialog, onDuplicated } = renderDialog();
    await fillGrace(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Make the copy' }));
    await waitFor(() => expect(onDuplicated).toHaveBeenCalledTimes(1));
    expect(desk.argsOf('protocols.duplicate')).toEqual([{ localId: SOURCE, customer: GRACE }]);
    expect(onDuplicated.mock.calls[0]?.[0].localId).toBe(COPY);
  });

  it('a Patient ID of another person asks first, then sends the answer with the copy', async () => {
    const clash = PatientIdClashView.parse({
      sourceId: 'PAT-1001',
      name: 'Grace Hopper',
      others: [
        {
          key: 'lovelace ada',
          name: 'Ada Lovelace',
          customer: order().customer,
          protocols: 1,
          orders: 0,
        },
      ],
      suggestedId: 'PAT-1002',
    });
    const desk = installOrderDesk({
      'protocols.duplicate': ({ customer, patientId }) =>
        patientId
          ? copyOf(customer as typeof GRACE)
          : new Refusal(
              IpcError.parse({
                kind: 'conflict',
                message: 'The ID names another person.',
                patientIdClash: clash,
              }),
            ),
    });
    const user = userEvent.setup();
    const { dialog, onDuplicated } = renderDialog();
    await fillGrace(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Make the copy' }));
    const ask = await screen.findByRole('dialog', {
      name: 'Patient ID PAT-1001 already belongs to Ada Lovelace',
    });
    await user.click(
      within(ask).getByRole('radio', { name: /^Yes: update the details everywhere/ }),
    );
    await user.click(within(ask).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDuplicated).toHaveBeenCalledTimes(1));
    expect(desk.argsOf('protocols.duplicate').map((a) => a.patientId)).toEqual([
      undefined,
      { choice: 'update-everywhere' },
    ]);
  });

  it('a refusal’s field errors go on their fields; Cancel closes', async () => {
    installOrderDesk({
      'protocols.duplicate': () =>
        refuse('validation', 'The server refused the copy.', [
          { path: ['customer', 'address', 'zipCode'], message: 'not a deliverable ZIP code' },
        ]),
    });
    const user = userEvent.setup();
    const { dialog, onClose, onDuplicated } = renderDialog();
    await fillGrace(user, dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Make the copy' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The copy was not made: some fields need attention.',
    );
    expect(within(dialog).getByLabelText('ZIP code').getAttribute('aria-invalid')).toBe('true');
    expect(onDuplicated).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
