import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Field, SelectField, sentence } from '@renderer/components/Field';

/** The texts an element's aria-describedby points to. */
const described = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);

describe('Field and SelectField: labelled controls with their hint and error', () => {
  it('an input tied to its label, hint and error (in words that say what to do)', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <Field label="Email" hint="Where receipts go." value="" onChange={onChange} />,
    );
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(described(input)).toEqual(['Where receipts go.']);
    await userEvent.type(input, 'a');
    expect(onChange).toHaveBeenCalled();
    rerender(
      <Field
        label="Email"
        hint="Where receipts go."
        value=""
        onChange={onChange}
        error="email address"
      />,
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(described(input)).toEqual(['Where receipts go.', 'Enter an email address']);
  });

  it('a select tied to its label and error; the choice reaches its owner', async () => {
    const onChange = vi.fn<(value: string) => void>();
    render(
      <SelectField
        label="Shipping method"
        error="required"
        defaultValue="STANDARD"
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="STANDARD">Standard</option>
        <option value="EXPRESS">Express</option>
      </SelectField>,
    );
    const select = screen.getByRole('combobox', { name: 'Shipping method' });
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(described(select)).toEqual(['Required']);
    await userEvent.selectOptions(select, 'EXPRESS');
    expect(onChange).toHaveBeenCalledWith('EXPRESS');
  });

  it('turns the contract’s terse messages into sentences', () => {
    expect(sentence('an absolute http or https URL')).toBe('Enter an absolute http or https URL');
    expect(sentence('hex color')).toBe('Enter a hex color');
    expect(sentence('at most 100 characters')).toBe('At most 100 characters');
  });
});
