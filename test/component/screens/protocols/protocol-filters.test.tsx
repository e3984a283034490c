import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProtocolColumn } from '@shared/protocol-views';
import { FilterSelect } from '@renderer/screens/protocols/FilterSelect';
import { ProtocolFilters } from '@renderer/screens/protocols/ProtocolFilters';
import { useAppStore } from '@renderer/stores/app-store';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { packProduct } from '@test/support/component/fixtures';
import { notedViews } from '@test/support/component/protocol-fixtures';

function renderFilters(more: Handlers = {}) {
  const desk = installOrderDesk({
    'catalog.products': () => ({ products: [packProduct()], total: 1 }),
    'undo.noteView': notedViews(),
    ...more,
  });
  render(<ProtocolFilters />);
  return desk;
}

beforeEach(() => {
  useProtocolsStore.getState().reset();
  useAppStore.setState({ protocolColumns: ProtocolColumn.options });
  useToastStore.setState({ toasts: [] });
});

describe('ProtocolFilters: search and sync-state chips', () => {
  it('keeps the search typed and the states chosen for the list', async () => {
    const desk = renderFilters();
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Magnesium Glycinate 120 mg' });
    await user.type(screen.getByRole('searchbox', { name: 'Search protocols' }), 'ada');
    expect(useProtocolsStore.getState().searchText).toBe('ada');
    const chips = screen.getByRole('group', { name: 'Show only' });
    expect(
      within(chips)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement?.textContent),
    ).toEqual(['Pending sync', 'In doubt', 'Conflict']);
    await user.click(within(chips).getByRole('checkbox', { name: 'Conflict' }));
    await user.click(within(chips).getByRole('checkbox', { name: 'Pending sync' }));
    expect(useProtocolsStore.getState().syncStates).toEqual(['pending', 'conflict']);
    await user.click(within(chips).getByRole('checkbox', { name: 'Conflict' }));
    expect(useProtocolsStore.getState().syncStates).toEqual(['pending']);
    // Each chip is a step of the undo history; the search typed is none (its field undoes it).
    expect(desk.argsOf('undo.noteView').map((n) => n.after.syncStates)).toEqual([
      ['conflict'],
      ['pending', 'conflict'],
      ['pending'],
    ]);
  });
});

describe('DueFilter and FilterSelect: who needs a refill soon', () => {
  it('filters by the window chosen, and back to any time', async () => {
    renderFilters();
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Magnesium Glycinate 120 mg' });
    const refill = screen.getByRole('combobox', { name: 'Refill' });
    expect(
      within(refill)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Any time',
      'Ran out',
      'Due within 7 days',
      'Due within 14 days',
      'Due within 30 days',
    ]);
    await user.selectOptions(refill, 'Due within 7 days');
    expect(useProtocolsStore.getState().due).toBe('within-7');
    await user.selectOptions(refill, 'Any time');
    expect(useProtocolsStore.getState().due).toBeNull();
  });

  it('FilterSelect: a labelled select that says each choice', async () => {
    const chosen: string[] = [];
    render(
      <FilterSelect id="f" label="Colour" value="red" onChange={(v) => chosen.push(v)}>
        <option value="red">Red</option>
        <option value="blue">Blue</option>
      </FilterSelect>,
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Colour' }), 'Blue');
    expect(chosen).toEqual(['blue']);
  });
});

describe('ColumnChooser: which columns the list shows, remembered on this desk', () => {
  it('hides a column and saves the choice; Escape closes it', async () => {
    const desk = renderFilters({ 'app.setProtocolColumns': () => null });
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Magnesium Glycinate 120 mg' });
    const summary = screen.getByText('Columns');
    await user.click(summary);
    const details = summary.closest('details')!;
    expect(details.open).toBe(true);
    const columns = screen.getByRole('group', { name: 'Columns shown' });
    await user.click(within(columns).getByRole('checkbox', { name: 'Supply' }));
    expect(desk.argsOf('app.setProtocolColumns')).toEqual([
      { columns: ['products', 'shipping', 'lastOrder', 'nextRefill', 'changed', 'sync'] },
    ]);
    expect(within(columns).getByRole('checkbox', { name: 'Supply' })).toHaveProperty(
      'checked',
      false,
    );
    await user.keyboard('{Escape}');
    expect(details.open).toBe(false);
  });

  it('puts the column back when the choice cannot be saved', async () => {
    renderFilters({ 'app.setProtocolColumns': () => refuse('storage', 'The disk is full.') });
    const user = userEvent.setup();
    await screen.findByRole('option', { name: 'Magnesium Glycinate 120 mg' });
    await user.click(screen.getByText('Columns'));
    await user.click(screen.getByRole('checkbox', { name: 'Sync' }));
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Sync' })).toHaveProperty('checked', true),
    );
    expect(useToastStore.getState().toasts[0]?.title).toMatch(/^The columns could not be saved\./);
  });
});
