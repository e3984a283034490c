import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { SearchField } from '@renderer/components/SearchField';

function Search({ onChange, max = 100 }: { onChange(value: string): void; max?: number }) {
  const [value, setValue] = useState('');
  return (
    <SearchField
      id="orders-search"
      label="Search orders"
      placeholder="Name, Patient ID or order"
      value={value}
      maxLength={max}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
    />
  );
}

describe('SearchField: a list’s search box', () => {
  it('passes what is typed, and Clear search empties it', async () => {
    const onChange = vi.fn();
    render(<Search onChange={onChange} />);
    const box = screen.getByRole('searchbox', { name: 'Search orders' });
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
    await userEvent.type(box, 'Ada');
    expect(onChange).toHaveBeenLastCalledWith('Ada');
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(box).toHaveProperty('value', '');
  });

  it('takes no more than its limit, and says so when it is reached', async () => {
    render(<Search onChange={() => undefined} max={5} />);
    const box = screen.getByRole('searchbox', { name: 'Search orders' });
    await userEvent.type(box, 'Lovelace');
    expect(box).toHaveProperty('value', 'Lovel');
    const limit = document.getElementById(box.getAttribute('aria-describedby') ?? '');
    expect(limit?.textContent).toBe('At most 5 characters.');
  });
});
