import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RetentionSection } from '@renderer/screens/settings/RetentionSection';
import { StaffSection } from '@renderer/screens/settings/StaffSection';
import { useAppStore } from '@renderer/stores/app-store';
import { installOrderDesk, refuse } from '@test/support/component/fake-order-desk';

beforeEach(() => {
  act(() =>
    useAppStore.setState({
      staff: ['Dana', 'Sam'],
      desk: { name: 'front-desk', osUser: 'reception' },
      retentionYears: 6,
    }),
  );
});

describe('StaffSection', () => {
  it('lists the people at the desk, adds one and renames one through main', async () => {
    const desk = installOrderDesk({
      'staff.add': ({ name }) => ({ staff: ['Dana', 'Sam', name], atDesk: null }),
      'staff.rename': ({ to }) => ({ staff: ['Dana', to], atDesk: null }),
    });
    const user = userEvent.setup();
    render(<StaffSection />);
    expect(screen.getByText(/this desk \(front-desk\) and its account \(reception\)/)).toBeTruthy();
    const list = screen.getByRole('list', { name: 'People at this desk' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['DanaRenameRemove', 'SamRenameRemove']);
    const add = screen.getByRole('form', { name: 'Add a person' });
    await user.type(within(add).getByLabelText('Name to add'), 'Lee');
    await user.click(within(add).getByRole('button', { name: 'Add person' }));
    await waitFor(() => expect(desk.argsOf('staff.add')).toEqual([{ name: 'Lee' }]));
    await waitFor(() =>
      expect((within(add).getByLabelText('Name to add') as HTMLInputElement).value).toBe(''),
    );

    await user.click(screen.getByRole('button', { name: 'Rename Sam' }));
    const rename = screen.getByRole('form', { name: 'Rename Sam' });
    const field = within(rename).getByLabelText('New name for Sam');
    await user.clear(field);
    await user.type(field, 'Samira');
    await user.click(within(rename).getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(desk.argsOf('staff.rename')).toEqual([{ from: 'Sam', to: 'Samira' }]),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Rename Sam' })).toBeNull());
  });

  it('shows main’s refusal on the field, and says a name that could not be removed', async () => {
    installOrderDesk({
      'staff.add': () =>
        refuse('validation', 'The name is not saved.', [
          { path: ['name'], message: 'Dana is already listed' },
        ]),
      'staff.remove': () => refuse('internal', 'The settings could not be written.'),
    });
    const user = userEvent.setup();
    render(<StaffSection />);
    await user.type(screen.getByLabelText('Name to add'), 'Dana');
    await user.click(screen.getByRole('button', { name: 'Add person' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Name to add').getAttribute('aria-invalid')).toBe('true'),
    );
    await user.click(screen.getByRole('button', { name: 'Remove Sam' }));
    expect((await screen.findByRole('alert', { name: '' })).textContent).toMatch(
      /^Sam could not be removed\./,
    );
  });

  it('with nobody listed, says the header does not ask', () => {
    act(() => useAppStore.setState({ staff: [] }));
    render(<StaffSection />);
    expect(
      screen.getByText('Nobody is listed: the header does not ask who is at the desk.'),
    ).toBeTruthy();
  });
});

describe('RetentionSection', () => {
  it('saves how many years the record keeps its entries', async () => {
    const desk = installOrderDesk({ 'activity.setRetention': () => null });
    const user = userEvent.setup();
    render(<RetentionSection />);
    const years = screen.getByLabelText('Keep entries for (years)');
    expect((years as HTMLInputElement).value).toBe('6');
    await user.clear(years);
    await user.type(years, '8');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(desk.argsOf('activity.setRetention')).toEqual([{ years: 8 }]));
    expect(await screen.findByText('Activity entries are kept 8 years.')).toBeTruthy();
  });

  it('refuses a number of years out of range before asking main', async () => {
    installOrderDesk({});
    const user = userEvent.setup();
    render(<RetentionSection />);
    const years = screen.getByLabelText('Keep entries for (years)');
    await user.clear(years);
    await user.type(years, '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(years.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('At least 1 year')).toBeTruthy();
  });
});
