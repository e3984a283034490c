import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProtocolColumn } from '@shared/protocol-views';
import type { UndoOutcome } from '@shared/undo-views';
import { Toasts } from '@renderer/components/Toasts';
import { useUndoShortcuts } from '@renderer/components/use-undo-shortcuts';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import ProtocolsScreen from '@renderer/screens/protocols/ProtocolsScreen';
import { useAppStore } from '@renderer/stores/app-store';
import { applyConnection } from '@renderer/stores/main-events';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { useToastStore } from '@renderer/stores/toast-store';
import { useUndoStore } from '@renderer/stores/undo-store';
import { EMBEDDED, PARTNER } from '@test/support/component/connections';
import { installOrderDesk, refuse, type Handlers } from '@test/support/component/fake-order-desk';
import { listView, protocolRow } from '@test/support/component/protocol-fixtures';
import { protocolListHandlers } from '@test/support/component/protocol-list-desk';

/**
 * The protocol list's filters, sort and columns in the undo history (docs/decisions.md, "Undo
 * and redo"): a person's change is noted as a step; Ctrl+Z and Ctrl+Shift+Z apply what main gives
 * back, and applying it notes nothing.
 */

const ROWS = [
  protocolRow(),
  protocolRow({
    localId: '8e1a6b1f-4d5c-4f1c-8b66-3a2a4a7c9d22',
    customerName: 'Grace Hopper',
    sourceId: 'PAT-GH-2',
    syncState: 'pending',
  }),
];

function Shell() {
  useUndoShortcuts();
  return (
    <>
      <Route path="/protocols">
        <ProtocolsScreen />
      </Route>
      <Toasts />
    </>
  );
}

function renderList(more: Handlers = {}) {
  const desk = installOrderDesk({ ...protocolListHandlers(ROWS), ...more });
  window.history.replaceState(null, '', '#/protocols');
  render(
    <Router hook={useGuardedHashLocation}>
      <Shell />
    </Router>,
  );
  return desk;
}

const viewStep = (seq: number, view: UndoOutcome['view']): UndoOutcome => ({
  step: { seq, kind: 'view', label: 'Filters of the protocol list' },
  localIds: [],
  view,
});

const pendingChip = () => screen.getByRole('checkbox', { name: 'Pending sync' });

beforeEach(() => {
  useProtocolsStore.getState().reset();
  useAppStore.setState({ protocolColumns: ProtocolColumn.options, connection: EMBEDDED });
  useToastStore.setState(useToastStore.getInitialState(), true);
  useUndoStore.setState(useUndoStore.getInitialState(), true);
});

describe("Undo of the protocol list's filters and columns", () => {
  it('a filter chosen is noted as a step; Ctrl+Z puts the filter back, Ctrl+Shift+Z again', async () => {
    const pending = listView({ syncStates: ['pending'] });
    const desk = renderList({
      'undo.undo': () => viewStep(1, listView()),
      'undo.redo': () => viewStep(1, pending),
    });
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Grace Hopper/ });
    await user.click(pendingChip());
    expect(desk.argsOf('undo.noteView')).toEqual([{ before: listView(), after: pending }]);
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Ada Lovelace/ })).toBeNull());

    // The chip keeps the focus: a checkbox has no text of its own, so the key is the app's.
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('Undone: Filters of the protocol list.')).toBeTruthy();
    expect(pendingChip()).toHaveProperty('checked', false);
    expect(useProtocolsStore.getState().syncStates).toEqual([]);
    expect(await screen.findByRole('link', { name: /^Ada Lovelace/ })).toBeTruthy();

    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(await screen.findByText('Redone: Filters of the protocol list.')).toBeTruthy();
    expect(pendingChip()).toHaveProperty('checked', true);
    // What an undo or redo set is no new step.
    expect(desk.argsOf('undo.noteView')).toHaveLength(1);
    expect(desk.argsOf('undo.undo')).toEqual([{}]);
    expect(desk.argsOf('undo.redo')).toEqual([{}]);
  });

  it('"Clear search and filters" is one step, of the filters only (the search is text)', async () => {
    const desk = renderList();
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Grace Hopper/ });
    await user.type(screen.getByRole('searchbox', { name: 'Search protocols' }), 'nobody');
    await user.click(screen.getByRole('checkbox', { name: 'Conflict' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Refill' }), 'Ran out');
    const filtered = listView({ syncStates: ['conflict'], due: 'ran-out' });
    await user.click(await screen.findByRole('button', { name: 'Clear search and filters' }));
    expect(useProtocolsStore.getState()).toMatchObject({ searchText: '', syncStates: [] });
    expect(desk.argsOf('undo.noteView')).toEqual([
      { before: listView(), after: listView({ syncStates: ['conflict'] }) },
      { before: listView({ syncStates: ['conflict'] }), after: filtered },
      { before: filtered, after: listView() },
    ]);
  });

  it('an undo of the columns shows them again, without saving them from the window', async () => {
    const desk = renderList({
      'app.setProtocolColumns': () => null,
      'undo.undo': () => ({
        step: { seq: 2, kind: 'columns', label: 'Columns of the protocol list' },
        localIds: [],
        columns: ProtocolColumn.options,
      }),
    });
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Grace Hopper/ });
    await user.click(screen.getByText('Columns'));
    const supply = () =>
      within(screen.getByRole('group', { name: 'Columns shown' })).getByRole('checkbox', {
        name: 'Supply',
      });
    await user.click(supply());
    expect(supply()).toHaveProperty('checked', false);
    await user.keyboard('{Control>}z{/Control}');
    expect(await screen.findByText('Undone: Columns of the protocol list.')).toBeTruthy();
    expect(supply()).toHaveProperty('checked', true);
    expect(useAppStore.getState().protocolColumns).toEqual(ProtocolColumn.options);
    // main wrote the setting with the undo: the window saved only the person's choice.
    expect(desk.argsOf('app.setProtocolColumns')).toHaveLength(1);
    expect(desk.argsOf('undo.noteView')).toEqual([]);
  });

  it('from another screen the toast names the list and leads to it', async () => {
    installOrderDesk({ 'undo.undo': () => viewStep(3, listView()) });
    window.history.replaceState(null, '', '#/orders');
    render(
      <Router hook={useGuardedHashLocation}>
        <Shell />
      </Router>,
    );
    await userEvent.keyboard('{Control>}z{/Control}');
    const told = await screen.findByText('Undone: Filters of the protocol list.');
    const toastEl = told.closest('.toast') as HTMLElement;
    expect(within(toastEl).getByRole('link', { name: 'Show the protocol list' })).toBeTruthy();
  });

  it('switching connection clears the filters and notes no step', async () => {
    const desk = renderList();
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Grace Hopper/ });
    await user.click(pendingChip());
    expect(desk.argsOf('undo.noteView')).toHaveLength(1);
    act(() => applyConnection(PARTNER));
    await waitFor(() => expect(pendingChip()).toHaveProperty('checked', false));
    expect(desk.argsOf('undo.noteView')).toHaveLength(1);
  });

  it('says so when main cannot note the step (the change stays shown)', async () => {
    renderList({ 'undo.noteView': () => refuse('storage', 'The disk is full.') });
    const user = userEvent.setup();
    await screen.findByRole('link', { name: /^Grace Hopper/ });
    await user.click(pendingChip());
    expect(
      await screen.findByText('This change of the list’s filters cannot be undone.'),
    ).toBeTruthy();
    expect(pendingChip()).toHaveProperty('checked', true);
  });
});
