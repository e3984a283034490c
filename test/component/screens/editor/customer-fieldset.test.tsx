import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CustomerFieldset } from '@renderer/screens/editor/CustomerFieldset';
import { CustomerForm, emptyCustomer } from '@renderer/screens/editor/editor-form';

const Form = z.object({ customer: CustomerForm });
type Output = z.output<typeof Form>;

/** The fieldset in a form of its own, as the editor and the duplicate dialog hold it. */
function PatientForm({ onSave, storedState }: { onSave(v: Output): void; storedState?: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof Form>, unknown, Output>({
    resolver: zodResolver(Form),
    defaultValues: {
      customer: {
        ...emptyCustomer(),
        address: { ...emptyCustomer().address, state: storedState ?? '' },
      },
    },
  });
  return (
    <form aria-label="Patient" onSubmit={handleSubmit(onSave)} noValidate>
      <CustomerFieldset
        bind={(name) => register(`customer.${name}`)}
        errors={errors.customer}
        idPrefix="test"
        storedState={storedState}
      />
      <button type="submit">Save</button>
    </form>
  );
}

describe('CustomerFieldset: the patient and the shipping address', () => {
  it('what is typed reaches the form as the request’s customer', async () => {
    const onSave = vi.fn<(v: Output) => void>();
    render(<PatientForm onSave={onSave} />);
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Patient' });
    const field = (label: string) => within(form).getByLabelText(label);
    await user.type(field('First name'), 'Ada');
    await user.type(field('Last name'), 'Lovelace');
    await user.type(field('Patient ID'), 'PAT-ADA-1');
    await user.type(field('Address line 1'), '12 Analytical Way');
    await user.type(field('City'), 'Portland');
    await user.selectOptions(field('State'), 'Oregon');
    await user.type(field('ZIP code'), '97201');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave.mock.calls[0]?.[0].customer).toEqual({
      sourceId: 'PAT-ADA-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: null,
      phone: null,
      address: {
        line1: '12 Analytical Way',
        line2: null,
        city: 'Portland',
        state: 'OR',
        zipCode: '97201',
      },
    });
    expect(within(form).getByRole('group', { name: 'Shipping address' })).toBeTruthy();
  });

  it('puts each refusal on its field; a stored state that is no US state is named', async () => {
    const onSave = vi.fn();
    render(<PatientForm onSave={onSave} storedState="XX" />);
    const form = screen.getByRole('form', { name: 'Patient' });
    expect(within(form).getByRole('option', { name: 'XX (not a US state)' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    const first = within(form).getByLabelText('First name');
    expect(first.getAttribute('aria-invalid')).toBe('true');
    const state = within(form).getByLabelText('State');
    const said = document.getElementById(state.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(said).toBe('"XX" is not a US state: choose the state from the list.');
    // Each input has the id its prefix gives it (two fieldsets can share a page).
    expect(first.id).toBe('test-firstName');
  });
});
