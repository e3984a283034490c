import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { DeskPicker } from '@renderer/components/DeskPicker';
import { useAppStore } from '@renderer/stores/app-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

const STAFF = ['Dr. Rivera', 'Sam Lee'];

beforeEach(() => {
  useAppStore.setState({ ...useAppStore.getInitialState(), staff: STAFF }, true);
  useToastStore.setState(useToastStore.getInitialState(), true);
});

describe('DeskPicker: who is at the desk', () => {
  it('picks a person through staff.choose, and "Not chosen" sends null', async () => {
    const desk = installOrderDesk({
      'staff.choose': ({ name }) => ({ staff: STAFF, atDesk: name }),
    });
    render(<DeskPicker />);
    const select = screen.getByRole('combobox', { name: 'At the desk' });
    expect(select).toHaveProperty('value', '');
    await userEvent.selectOptions(select, 'Sam Lee');
    expect(select).toHaveProperty('value', 'Sam Lee');
    await userEvent.selectOptions(select, 'Not chosen');
    expect(desk.argsOf('staff.choose')).toEqual([{ name: 'Sam Lee' }, { name: null }]);
  });

  it('a choice main refuses is taken back, and said', async () => {
    installOrderDesk({ 'staff.choose': () => refuse('internal', 'The store is read-only.') });
    render(<DeskPicker />);
    const select = screen.getByRole('combobox', { name: 'At the desk' });
    await userEvent.selectOptions(select, 'Dr. Rivera');
    await waitFor(() => expect(select).toHaveProperty('value', ''));
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual([
      'Who is at the desk could not be saved. The store is read-only.',
    ]);
  });

  it('nobody listed: not shown', () => {
    useAppStore.setState({ staff: [] });
    installOrderDesk();
    const { container } = render(<DeskPicker />);
    expect(container.innerHTML).toBe('');
  });
});
