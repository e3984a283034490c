import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PracticeCard } from '@renderer/screens/practice/PracticeCard';
import { PracticeSelect } from '@renderer/screens/practice/PracticeSelect';

function card(over: Partial<Parameters<typeof PracticeCard>[0]> = {}) {
  const onSubmit = vi.fn();
  render(
    <PracticeCard
      id="practice-test"
      title="Move an order"
      hint="As the partner would."
      formLabel="Move one order"
      submitLabel="Move order"
      canSubmit
      command={{ busy: false, error: null }}
      result={null}
      onSubmit={onSubmit}
      {...over}
    >
      <input aria-label="Order" />
    </PracticeCard>,
  );
  return onSubmit;
}

describe('PracticeCard', () => {
  it('a headed card whose form submits its one command', async () => {
    const onSubmit = card({ result: 'Order ord_1 is now Shipped.' });
    expect(screen.getByRole('region', { name: 'Move an order' })).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Move one order' });
    expect(form.textContent).toContain('Move order');
    await userEvent.type(screen.getByLabelText('Order'), 'x{Enter}');
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(screen.getByRole('status').textContent).toBe('Order ord_1 is now Shipped.');
  });

  it('cannot be submitted while busy or with nothing to submit; says a failure as an alert', async () => {
    const onSubmit = card({ command: { busy: true, error: 'The sandbox refused it.' } });
    const submit = screen.getByRole('button', { name: 'Move order' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('The sandbox refused it.');
    await userEvent.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});

describe('PracticeSelect', () => {
  it('answers the chosen option’s own value: a number stays a number', async () => {
    const onChange = vi.fn();
    render(
      <PracticeSelect
        label="Product"
        value={101}
        options={[
          { value: 101, label: 'Magnesium' },
          { value: 102, label: 'Omega-3' },
        ]}
        onChange={onChange}
      />,
    );
    await userEvent.selectOptions(screen.getByLabelText('Product'), 'Omega-3');
    expect(onChange).toHaveBeenCalledWith(102);
  });

  it('without options, says so and is disabled', () => {
    render(
      <PracticeSelect
        label="Order"
        value=""
        options={[]}
        empty="No order to move yet"
        onChange={vi.fn()}
      />,
    );
    const select = screen.getByLabelText('Order') as HTMLSelectElement;
    expect(select.disabled).toBe(true);
    expect(select.textContent).toBe('No order to move yet');
  });
});
