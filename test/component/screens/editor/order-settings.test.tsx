import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { ShippingMethodInfo } from '@shared/api';
import { OrderSettings } from '@renderer/screens/editor/OrderSettings';
import { emptyForm, type EditorFormInput } from '@renderer/screens/editor/editor-form';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

const METHODS = [
  { id: 'STANDARD', name: 'Standard', price: '7.99', minDays: 3, maxDays: 5 },
  { id: 'EXPRESS', name: 'Express', price: '14.99', minDays: 2, maxDays: 3 },
  { id: 'OVERNIGHT', name: 'Overnight', price: '29.99', minDays: 1, maxDays: 1 },
].map((m) => ShippingMethodInfo.parse({ ...m, description: `${m.name} delivery` }));

function Settings({ onSave }: { onSave(v: EditorFormInput): void }) {
  const { register, handleSubmit, formState } = useForm<EditorFormInput>({
    defaultValues: emptyForm(),
  });
  return (
    <form aria-label="Order" onSubmit={handleSubmit(onSave)}>
      <OrderSettings register={register} errors={formState.errors} />
      <button type="submit">Save</button>
    </form>
  );
}

describe('OrderSettings: days supply, order type and shipping', () => {
  it('offers the catalog’s shipping methods with price and days; the choices reach the form', async () => {
    const desk = installOrderDesk({ 'catalog.shippingMethods': () => METHODS });
    const onSave = vi.fn<(v: EditorFormInput) => void>();
    render(<Settings onSave={onSave} />);
    const user = userEvent.setup();
    expect(await screen.findByRole('option', { name: 'Express: $14.99, 2–3 days' })).toBeTruthy();
    expect(screen.getByRole('option', { name: 'Overnight: $29.99, 1 day' })).toBeTruthy();
    expect(desk.argsOf('catalog.shippingMethods')).toEqual([{}]);
    await user.click(screen.getByRole('radio', { name: '90 days' }));
    await user.click(screen.getByRole('radio', { name: 'Subscription' }));
    await user.selectOptions(screen.getByLabelText('Shipping method'), 'EXPRESS');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({
      daysSupply: '90',
      orderType: 'SUBSCRIPTION',
      shippingMethod: 'EXPRESS',
    });
  });

  it('no methods in the catalog yet: the spec’s methods and prices', async () => {
    installOrderDesk({ 'catalog.shippingMethods': () => [] });
    render(<Settings onSave={() => undefined} />);
    expect(await screen.findByRole('option', { name: 'Standard: $7.95' })).toBeTruthy();
    expect(screen.getAllByRole('option')).toHaveLength(3);
    expect(screen.getByRole('radio', { name: '30 days' })).toHaveProperty('checked', true);
  });
});
